// Warp-shuffle reduction; lane 0 of each warp publishes, the first warp finishes after a barrier.
// expect: none
// kopt: launch sum grid=(64) block=(256) args=(x, out)
__global__ void sum(const float *x, float *out) {
  __shared__ float w[8];
  float v = x[blockIdx.x * 256 + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) w[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < 8 ? w[threadIdx.x] : 0.f;
    for (int o = 4; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}
