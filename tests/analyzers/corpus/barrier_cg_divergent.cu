// cooperative_groups block.sync() under a thread-dependent branch.
// expect: barrier.divergent
// kopt: launch cg_partial grid=(16) block=(128, 1, 1) args=(x)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void cg_partial(float* x) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[128];
  unsigned r = block.thread_rank();
  s[r] = x[blockIdx.x * 128 + r];
  block.sync();
  if (r < 64) {
    s[r] += s[r + 64];
    block.sync();
  }
  x[blockIdx.x * 128 + r] = s[r];
}
