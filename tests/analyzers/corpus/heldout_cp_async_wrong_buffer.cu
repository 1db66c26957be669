// Double buffering bug: the prefetch for the next tile is issued into the buffer being read.
// expect: async.cp-async-wait
// kopt: launch db grid=(cdiv(n, 4096)) block=(128, 1, 1) args=(x, y, n)
#include <cuda_pipeline.h>
__global__ void db(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float buf[2][128];
  int t = threadIdx.x;
  const float* src = x + blockIdx.x * 4096;
  __pipeline_memcpy_async(&buf[0][t], &src[t], sizeof(float));
  __pipeline_commit();
  float acc = 0.f;
  for (int k = 0; k < 32; ++k) {
    int cur = k & 1;
    __pipeline_wait_prior(0);
    __syncthreads();
    if (k + 1 < 32) __pipeline_memcpy_async(&buf[cur][t], &src[(k + 1) * 128 + t], sizeof(float));
    __pipeline_commit();
    acc += buf[cur][(t + 1) % 128];
    __syncthreads();
  }
  y[blockIdx.x * 128 + t] = acc;
}
