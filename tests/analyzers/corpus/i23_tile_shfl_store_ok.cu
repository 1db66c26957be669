// tile.shfl(v, 0) broadcasts lane 0 of each 32-thread tile; every lane stores the broadcast value.
// expect: none
// kopt: launch lead grid=(2) block=(64) args=(x, y)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void lead(const float *x, float *y) {
  __shared__ float s[2];
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = tile.shfl(x[blockIdx.x * 64 + threadIdx.x], 0);
  s[tile.meta_group_rank()] = v;
  __syncthreads();
  y[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x / 32];
}
