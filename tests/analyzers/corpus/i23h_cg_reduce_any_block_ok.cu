// Per-warp sums through cg::reduce over 32-thread tiles, with the block size chosen at run time (any multiple of a
// warp or not): every lane of a tile stores the tile's one sum to the tile's slot, so the stores agree.
// expect: none
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void i23h_warp_sums(const float *x, float *y, int n) {
  __shared__ float part[32];
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  float s = cg::reduce(tile, v, cg::plus<float>());
  part[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) y[blockIdx.x] = part[0];
}

void i23h_run_sums(const float *x, float *y, int n, int threads) {
  i23h_warp_sums<<<(n + threads - 1) / threads, threads>>>(x, y, n);
}
