// A WARP_SIZE macro defined in the file sizes the per-warp array.
// expect: none
// kopt: launch per_warp grid=(4) block=(256) args=(x, y)
#define WARP_SIZE 32
#define WARPS (256 / WARP_SIZE)
__global__ void per_warp(const float *x, float *y) {
  __shared__ float w[WARPS];
  int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  if (lane == 0) w[warp] = x[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < WARPS) y[blockIdx.x * WARPS + threadIdx.x] = w[threadIdx.x];
}
