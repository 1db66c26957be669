// A helper publishes per-warp sums through shared memory and waits on a block-scoped cuda::barrier it receives
// by reference before warp 0 reads them: the arrive/wait pair orders the writes before the reads.
// expect: none
// kopt: launch norms grid=(16) block=(256) args=(x, out)
#include <cuda/barrier>
__device__ void publish(cuda::barrier<cuda::thread_scope_block> &bar, float v, float *out) {
  __shared__ float sums[8];
  if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = v;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  if (threadIdx.x < 8) out[blockIdx.x * 8 + threadIdx.x] = sums[threadIdx.x];
}
__global__ void norms(const float *x, float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  publish(bar, x[blockIdx.x * 256 + threadIdx.x], out);
}
