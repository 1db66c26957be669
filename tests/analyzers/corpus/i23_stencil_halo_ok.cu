// 1-D 3-point stencil with a halo loaded by the first and last threads, then a barrier.
// expect: none
// kopt: launch stencil grid=(64) block=(128) args=(x, y, n)
__global__ void stencil(const float *x, float *y, int n) {
  __shared__ float s[130];
  int g = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x + 1] = g < n ? x[g] : 0.f;
  if (threadIdx.x == 0) s[0] = g > 0 ? x[g - 1] : 0.f;
  if (threadIdx.x == 127) s[129] = g + 1 < n ? x[g + 1] : 0.f;
  __syncthreads();
  if (g < n) y[g] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
}
