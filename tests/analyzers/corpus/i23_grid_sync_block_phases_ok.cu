// Block 0 combines the partial sums between two grid syncs, after a block barrier; every block reads the total
// after the second grid sync. The block barrier makes block 0's phase numbers differ from the other blocks',
// which orders nothing across blocks: only the grid syncs do, and they separate the write from every read.
// expect: none
// kopt: launch total grid=(8) block=(128) args=(x, partial, out)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void total(const float *x, float *partial, float *out) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) partial[blockIdx.x] = x[i];
  grid.sync();
  if (blockIdx.x == 0) {
    __syncthreads();
    if (threadIdx.x == 0) {
      float s = 0.f;
      for (int b = 0; b < 8; ++b) s += partial[b];
      partial[0] = s;
    }
  }
  grid.sync();
  out[i] = x[i] / partial[0];
}
