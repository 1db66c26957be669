// Tiles are processed in a loop whose trip count is the same for every thread; all threads reach the barriers.
// expect: none
// kopt: launch tiles grid=(64) block=(256, 1, 1) args=(x, y, ntiles)
__global__ void tiles(const float* __restrict__ x, float* __restrict__ y, int ntiles) {
  __shared__ float s[256];
  for (int tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
    s[threadIdx.x] = x[tile * 256 + threadIdx.x];
    __syncthreads();
    y[tile * 256 + threadIdx.x] = s[255 - threadIdx.x];
    __syncthreads();
  }
}
