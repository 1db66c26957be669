// block.sync() reached by all threads; only the work after it is guarded.
// expect: none
// kopt: launch halves grid=(2) block=(256) args=(x)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void halves(float *x) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[256];
  unsigned r = block.thread_rank();
  s[r] = x[blockIdx.x * 256 + r];
  block.sync();
  if (r < 128) x[blockIdx.x * 256 + r] = s[r + 128];
}
