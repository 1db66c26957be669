// Every warp stores its partial into slot 0 instead of its own slot.
// expect: race.shared
// kopt: launch block_sum grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, out, n)
__device__ float warp_reduce(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__global__ void block_sum(const float* __restrict__ x, float* __restrict__ out, int n) {
  __shared__ float partials[8];
  int i = blockIdx.x * 256 + threadIdx.x;
  float v = warp_reduce(i < n ? x[i] : 0.f);
  if ((threadIdx.x & 31) == 0) partials[0] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < 8; ++w) s += partials[w];
    out[blockIdx.x] = s;
  }
}
