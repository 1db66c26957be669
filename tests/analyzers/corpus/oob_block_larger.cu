// The shared buffer holds 128 floats but the kernel is launched with 256 threads.
// expect: bounds.shared
// kopt: launch copy_through_smem grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, y, n)
__global__ void copy_through_smem(const float* x, float* y, int n) {
  __shared__ float buf[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? x[i] : 0.f;
  __syncthreads();
  if (i < n) y[i] = buf[t];
}
