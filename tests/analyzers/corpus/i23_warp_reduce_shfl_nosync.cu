// The same reduction without the barrier between publishing the warp sums and the first warp reading them.
// expect: sync.missing
// kopt: launch sum grid=(64) block=(256) args=(x, out)
__global__ void sum(const float *x, float *out) {
  __shared__ float w[8];
  float v = x[blockIdx.x * 256 + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) w[threadIdx.x / 32] = v;
  if (threadIdx.x < 32) {
    v = threadIdx.x < 8 ? w[threadIdx.x] : 0.f;
    for (int o = 4; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}
