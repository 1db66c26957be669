// The same kernel over an odd number of rows: the last block's second warp has no row and returns early, while
// its first warp waits at the barrier.
// expect: barrier.divergent
// kopt: launch row_norms grid=((rows + 1) / 2) block=(64, 1, 1) args=(x, out, rows, cols)
// kopt: assume rows % 2 == 1 && rows >= 1 && cols >= 1
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void row_norms(const float* x, float* out, int rows, int cols) {
  __shared__ float partial[2];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= rows) return;
  float s = 0.f;
  for (int c = warp.thread_rank(); c < cols; c += 32) s += x[row * cols + c] * x[row * cols + c];
  s = cg::reduce(warp, s, cg::plus<float>());
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = s;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0] + partial[1];
}
