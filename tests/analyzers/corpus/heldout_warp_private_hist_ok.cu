// One private histogram per warp in shared memory, updated atomically, then summed per bin.
// expect: none
// kopt: launch hist_warp grid=(96) block=(256, 1, 1) args=(data, bins, n)
__global__ void hist_warp(const unsigned char* __restrict__ data, unsigned int* __restrict__ bins, int n) {
  __shared__ unsigned int h[8][256];
  int warp = threadIdx.x / 32;
  for (int b = threadIdx.x; b < 8 * 256; b += 256) h[b / 256][b % 256] = 0;
  __syncthreads();
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 256 * gridDim.x) atomicAdd(&h[warp][data[i]], 1u);
  __syncthreads();
  unsigned int total = 0;
  for (int w = 0; w < 8; ++w) total += h[w][threadIdx.x];
  atomicAdd(&bins[threadIdx.x], total);
}
