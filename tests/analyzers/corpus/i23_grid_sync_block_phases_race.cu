// As the ordered version, but the second grid sync is a block barrier: other blocks read partial[0] while
// block 0 may still be writing it (a block barrier orders only the threads of one block).
// expect: race.global
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
  __syncthreads();
  out[i] = x[i] / partial[0];
}
