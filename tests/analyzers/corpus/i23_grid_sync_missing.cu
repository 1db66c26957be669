// The same two phases without grid.sync(): the read of the neighbour's element (thread i + 1, in the next block
// at a block boundary) races with its write.
// expect: race.global
// kopt: launch smooth grid=(8) block=(128) args=(x, y, z, n)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void smooth(const float *x, float *y, float *z, int n) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.f * x[i];
  cg::sync(cg::this_thread_block());
  if (i + 1 < n) z[i] = y[i] + y[i + 1];
}
