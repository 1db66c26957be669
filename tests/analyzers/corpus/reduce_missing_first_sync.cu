// The tile is written and immediately reduced: no barrier after the load.
// expect: sync.missing
// kopt: launch block_sum grid=(cdiv(n, 128)) block=(128, 1, 1) args=(in, out, n)
#include <cuda_runtime.h>

template <int BLOCK>
__device__ void tree(float* s, int tid) {
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
}

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  int gid = blockIdx.x * 128 + tid;
  s[tid] = gid < n ? in[gid] : 0.0f;
  tree<128>(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}
