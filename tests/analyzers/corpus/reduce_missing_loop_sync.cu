// Tree reduction with the barrier hoisted out of the loop: a step reads partial sums written by other threads in
// earlier steps with no barrier in between.
// expect: sync.missing
// kopt: launch reduce_sum grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, partial, n)
#include <cuda_runtime.h>

__global__ void reduce_sum(const float* x, float* partial, int n) {
  __shared__ float sdata[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? x[i] : 0.f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
  }
  __syncthreads();
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}
