// Three-stage pipeline that waits too little: wait_prior(STAGES) leaves the stage being read in flight.
// expect: async.cp-async-wait
// kopt: launch pipelined_sum grid=(cdiv(n, 4096)) block=(128, 1, 1) args=(x, y, n)
#include <cuda_pipeline.h>
#define STAGES 3
#define TILE 128

__global__ void pipelined_sum(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float stage[STAGES][TILE];
  const int t = threadIdx.x;
  const int base = blockIdx.x * 32 * TILE;
  const int ntiles = 32;
  float acc = 0.f;
  for (int s = 0; s < STAGES - 1; ++s) {
    __pipeline_memcpy_async(&stage[s][t], &x[base + s * TILE + t], sizeof(float));
    __pipeline_commit();
  }
  for (int tile = 0; tile < ntiles; ++tile) {
    int pre = tile + STAGES - 1;
    if (pre < ntiles) __pipeline_memcpy_async(&stage[pre % STAGES][t], &x[base + pre * TILE + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(STAGES);
    __syncthreads();
    acc += stage[tile % STAGES][(t + 1) % TILE];
    __syncthreads();
  }
  y[blockIdx.x * TILE + t] = acc;
}
