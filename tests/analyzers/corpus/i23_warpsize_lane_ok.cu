// Lane and warp indices from warpSize; lane 0 of each warp writes the warp's slot.
// expect: none
// kopt: launch per_warp grid=(4) block=(256) args=(x, y)
__global__ void per_warp(const float *x, float *y) {
  __shared__ float w[8];
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) w[warp] = x[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 8) y[blockIdx.x * 8 + threadIdx.x] = w[threadIdx.x];
}
