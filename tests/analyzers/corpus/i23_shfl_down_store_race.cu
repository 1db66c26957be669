// Every lane stores its own __shfl_down_sync result into the warp's one slot: different values collide.
// expect: race.shared
// kopt: launch partial grid=(4) block=(256) args=(x, y)
__global__ void partial(const float *x, float *y) {
  __shared__ float slot[8];
  float v = x[blockIdx.x * 256 + threadIdx.x];
  v += __shfl_down_sync(0xffffffffu, v, 16);
  slot[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 8) y[blockIdx.x * 8 + threadIdx.x] = slot[threadIdx.x];
}
