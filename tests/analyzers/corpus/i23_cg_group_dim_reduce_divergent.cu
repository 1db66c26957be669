// The same reduction with block.sync() inside the branch: threads t >= stride skip it.
// (only the threads below the stride reach the barrier of a pass)
// expect: barrier.divergent
// kopt: launch cg_tree_sum grid=(cdiv(n, 256)) block=(256, 1, 1) args=(in, out, n)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void cg_tree_sum(const float* in, float* out, int n) {
  __shared__ float s[256];
  cg::thread_block block = cg::this_thread_block();
  unsigned t = block.thread_index().x;
  unsigned i = block.group_index().x * block.group_dim().x + t;
  s[t] = i < n ? in[i] : 0.f;
  block.sync();
  for (unsigned stride = block.group_dim().x / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      s[t] += s[t + stride];
      block.sync();
    }
  }
  if (t == 0) out[block.group_index().x] = s[0];
}
