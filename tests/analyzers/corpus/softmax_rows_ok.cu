// Row softmax, one block per row: block-wide max and sum through shared memory.
// expect: none
// kopt: tune BLOCK in [128, 256, 512]
// kopt: launch softmax_kernel grid=(rows, 1, 1) block=(BLOCK, 1, 1) smem=0 args=(x, y, rows, cols)
#include <cuda_fp16.h>
#ifndef BLOCK
#define BLOCK 256
#endif

__device__ float block_reduce(float v, float* scratch, bool is_max) {
  int t = threadIdx.x;
  scratch[t] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) scratch[t] = is_max ? fmaxf(scratch[t], scratch[t + s]) : scratch[t] + scratch[t + s];
    __syncthreads();
  }
  float r = scratch[0];
  __syncthreads();
  return r;
}

extern "C" __global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  __shared__ float scratch[BLOCK];
  const float* xr = x + (size_t)blockIdx.x * cols;
  float* yr = y + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += BLOCK) m = fmaxf(m, xr[c]);
  m = block_reduce(m, scratch, true);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) s += __expf(xr[c] - m);
  s = block_reduce(s, scratch, false);
  for (int c = threadIdx.x; c < cols; c += BLOCK) yr[c] = __expf(xr[c] - m) / s;
}
