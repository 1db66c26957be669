// Per-warp transpose of a 32x32 register tile via shared memory, fenced with tile.sync().
// expect: none
// kopt: launch warp_transpose grid=(blocks) block=(128, 1, 1) args=(in, out)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void warp_transpose(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tiles[4][32][33];
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  int w = warp.meta_group_rank(), lane = warp.thread_rank();
  const float* src = in + (blockIdx.x * 4 + w) * 1024;
  float* dst = out + (blockIdx.x * 4 + w) * 1024;
  for (int r = 0; r < 32; ++r) tiles[w][r][lane] = src[r * 32 + lane];
  warp.sync();
  for (int r = 0; r < 32; ++r) dst[r * 32 + lane] = tiles[w][lane][r];
}
