// A cooperative kernel in two phases: every thread writes its element of y, the grid synchronizes, then each
// thread reads its neighbour's element (written by another thread, possibly of another block). grid.sync()
// orders the two phases across blocks.
// expect: none
// kopt: launch smooth grid=(8) block=(128) args=(x, y, z, n)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void smooth(const float *x, float *y, float *z, int n) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.f * x[i];
  grid.sync();
  if (i + 1 < n) z[i] = y[i] + y[i + 1];
}
