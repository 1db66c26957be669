// A cooperative-groups kernel that fills a tile and reads a neighbour's element with no group barrier.
// expect: sync.missing
// kopt: launch shift grid=(8) block=(64) args=(x, y)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void shift(const float *x, float *y) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[64];
  unsigned r = block.thread_rank();
  s[r] = x[blockIdx.x * 64 + r];
  y[blockIdx.x * 64 + r] = s[(r + 1) % 64];
}
