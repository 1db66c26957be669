// Only the first warp continues; it exchanges data through shared memory fenced by __syncwarp().
// expect: none
// kopt: launch first_warp grid=(16) block=(128, 1, 1) args=(x)
__global__ void first_warp(float* x) {
  __shared__ float buf[32];
  if (threadIdx.x >= 32) return;
  int lane = threadIdx.x;
  buf[lane] = x[blockIdx.x * 32 + lane];
  __syncwarp();
  float v = buf[31 - lane];
  __syncwarp();
  buf[lane] = v * 2.f;
  __syncwarp();
  x[blockIdx.x * 32 + lane] = buf[lane] + buf[(lane + 1) % 32];
}
