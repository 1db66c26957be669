// cg::reduce over a 32-thread tile gives every lane the tile's sum; all lanes store it to the tile's slot.
// expect: none
// kopt: launch sums grid=(4) block=(128) args=(x, y)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void sums(const float *x, float *y) {
  __shared__ float part[4];
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float s = cg::reduce(tile, x[blockIdx.x * 128 + threadIdx.x], cg::plus<float>());
  part[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) y[blockIdx.x] = part[0] + part[1] + part[2] + part[3];
}
