// Cooperative-groups reduction with 32-thread tiles.
// expect: none
// kopt: launch reduce_cg grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, out, n)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce_cg(const float* x, float* out, int n) {
  __shared__ float partial[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  v = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = v;
  block.sync();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < 8; ++w) s += partial[w];
    out[blockIdx.x] = s;
  }
}
