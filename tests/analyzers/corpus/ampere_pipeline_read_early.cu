// Pipeline primitives: the shared buffer is read before __pipeline_wait_prior.
// expect: async.cp-async-wait
// kopt: launch staged_scale grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, y, n)
#include <cuda_pipeline.h>
__global__ void staged_scale(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float buf[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  if (i < n) __pipeline_memcpy_async(&buf[t], &x[i], sizeof(float));
  __pipeline_commit();
  __syncthreads();
  float v = buf[255 - t];
  __pipeline_wait_prior(0);
  if (i < n) y[i] = 2.f * v;
}
