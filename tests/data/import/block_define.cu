#include <cuda_runtime.h>
#include <cstdio>
#define BLOCK 256

// Sums each block of x into partial[blockIdx.x].
__global__ void block_sum(const float* x, float* partial, int n) {
  __shared__ float s[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int w = BLOCK / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

void launch(const float* d_x, float* d_partial, int count) {
  block_sum<<<(count + BLOCK - 1) / BLOCK, BLOCK>>>(d_x, d_partial, count);
}
