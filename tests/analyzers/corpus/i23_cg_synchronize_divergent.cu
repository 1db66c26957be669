// The legacy cooperative-groups barrier cg::synchronize(block) is reached only by the first warp, so
// the other warps also read the tile with no barrier after its writes.
// expect: barrier.divergent, sync.missing
// kopt: launch stage grid=(4) block=(128) args=(x, y)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void stage(const float *x, float *y) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[128];
  s[threadIdx.x] = x[blockIdx.x * 128 + threadIdx.x];
  if (threadIdx.x < 32) cg::synchronize(block);
  y[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];
}
