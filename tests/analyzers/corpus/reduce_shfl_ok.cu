// Warp-shuffle reduction, one partial per warp through shared memory, then atomics across blocks.
// expect: none
// kopt: launch reduce_shfl grid=(cdiv(n, 1024)) block=(1024, 1, 1) args=(x, total, n)
#include <cuda_runtime.h>

__inline__ __device__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduce_shfl(const float* __restrict__ x, float* total, int n) {
  __shared__ float warp_partials[32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  v = warp_sum(v);
  if (lane == 0) warp_partials[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x / 32) ? warp_partials[lane] : 0.f;
    v = warp_sum(v);
    if (lane == 0) atomicAdd(total, v);
  }
}
