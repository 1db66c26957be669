// Last-warp reduction done right: read into a register, __syncwarp, then write.
// expect: none
// kopt: launch reduce_syncwarp grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, out, n)
#include <cuda_runtime.h>

__global__ void reduce_syncwarp(const float* __restrict__ x, float* __restrict__ out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.f;
  __syncthreads();
  for (int stride = 128; stride >= 64; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t < 32) {
    float v = s[t];
    for (int off = 32; off > 0; off >>= 1) {
      v += s[t + off];
      __syncwarp();
      s[t] = v;
      __syncwarp();
    }
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
