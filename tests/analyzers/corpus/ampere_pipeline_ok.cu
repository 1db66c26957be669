// Pipeline primitives: async copy, commit, wait, barrier, then read.
// expect: none
// kopt: launch staged_scale grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, y, n)
#include <cuda_pipeline.h>
__global__ void staged_scale(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float buf[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  if (i < n) __pipeline_memcpy_async(&buf[t], &x[i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  if (i < n) y[i] = 2.f * buf[255 - t];
}
