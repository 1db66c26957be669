// Only the first half of the block reaches the barrier.
// expect: barrier.divergent
// kopt: launch half_block grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, n)
__global__ void half_block(float* x, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  s[t] = i < n ? x[i] : 0.f;
  __syncthreads();
  if (t < 128) {
    s[t] += s[t + 128];
    __syncthreads();
  }
  if (i < n) x[i] = s[t];
}
