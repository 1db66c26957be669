// Cooperative-groups grid-stride loop writing into 100 shared output buckets without atomics.
// expect: race.global
// kopt: launch buckets grid=(80) block=(256, 1, 1) args=(x, out, n)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void buckets(const float* __restrict__ x, float* out, int n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) out[i % 100] = x[i];
}
