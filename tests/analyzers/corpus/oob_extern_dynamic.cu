// Dynamic shared memory sized for one float per thread, indexed with a stride of two.
// expect: bounds.shared, bank-conflict(2)
// kopt: launch pairs grid=(cdiv(n, 128)) block=(128, 1, 1) smem=128*4 args=(x, n)
__global__ void pairs(float* x, int n) {
  extern __shared__ float dyn[];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  dyn[2 * t] = i < n ? x[i] : 0.f;
  __syncthreads();
  if (i < n) x[i] = dyn[2 * ((t + 1) % 128)];
}
