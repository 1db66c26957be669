// block.sync() inside a branch on the thread's rank: threads of the second half skip it.
// expect: barrier.divergent
// kopt: launch halves grid=(2) block=(256) args=(x)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void halves(float *x) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[256];
  unsigned r = block.thread_rank();
  s[r] = x[blockIdx.x * 256 + r];
  if (r < 128) {
    block.sync();
    x[blockIdx.x * 256 + r] = s[r + 128];
  }
}
