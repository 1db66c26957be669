// Classic shared-memory tree reduction: one partial sum per block.
// expect: none
// kopt: launch reduce_sum grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, partial, n)
#include <cuda_runtime.h>
#define BLOCK 256

extern "C" __global__ void reduce_sum(const float* __restrict__ x, float* __restrict__ partial, int n) {
  __shared__ float sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = (i < n) ? x[i] : 0.0f;
  __syncthreads();
#pragma unroll
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}
