// Every thread reaches cg::synchronize(block) before reading what the others wrote.
// expect: none
// kopt: launch stage grid=(4) block=(128) args=(x, y)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void stage(const float *x, float *y) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[128];
  s[threadIdx.x] = x[blockIdx.x * 128 + threadIdx.x];
  cg::synchronize(block);
  y[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];
}
