// Every lane writes the warp's slot (the lane test is missing).
// expect: race.shared
// kopt: launch per_warp grid=(4) block=(256) args=(x, y)
__global__ void per_warp(const float *x, float *y) {
  __shared__ float w[8];
  int warp = threadIdx.x / warpSize;
  w[warp] = x[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 8) y[blockIdx.x * 8 + threadIdx.x] = w[threadIdx.x];
}
