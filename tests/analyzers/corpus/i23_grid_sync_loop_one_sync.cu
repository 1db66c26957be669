// The same iterations with only the first grid.sync(): the copy back to a of iteration it races with the reads
// of a (by neighbouring threads, in other blocks) of iteration it + 1.
// expect: race.global
// kopt: launch jacobi grid=(16) block=(256) args=(a, b, n, iters)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void jacobi(float *a, float *b, int n, int iters) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int it = 0; it < iters; it++) {
    if (i > 0 && i + 1 < n) b[i] = 0.5f * (a[i - 1] + a[i + 1]);
    grid.sync();
    if (i > 0 && i + 1 < n) a[i] = b[i];
  }
}
