// A block reduction in a helper that takes the thread_block handle by value and synchronizes through it.
// expect: none
// kopt: launch sums grid=(8) block=(256) smem=1024 args=(out, x)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ unsigned block_sum(unsigned in, cg::thread_block cta) {
  extern __shared__ unsigned part[];
  unsigned t = threadIdx.x;
  part[t] = in;
  cg::sync(cta);
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    cg::sync(cta);
  }
  return part[0];
}
__global__ void sums(unsigned *out, const unsigned *x) {
  cg::thread_block cta = cg::this_thread_block();
  unsigned v = block_sum(x[blockIdx.x * 256 + threadIdx.x], cta);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
