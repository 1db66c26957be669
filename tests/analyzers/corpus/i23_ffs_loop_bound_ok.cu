// A loop bounded by the lowest set bit of the grid's thread count reads a 32-entry shared table: __ffs returns
// at most 32, so k stays below 31.
// expect: none
// kopt: launch gray grid=(64) block=(64) args=(table, out)
__global__ void gray(const unsigned *table, unsigned *out) {
  __shared__ unsigned v[32];
  if (threadIdx.x < 32) v[threadIdx.x] = table[threadIdx.x];
  __syncthreads();
  unsigned stride = gridDim.x * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x, x = 0;
  for (unsigned k = 0; k < __ffs(stride) - 1; k++) {
    x ^= (g & 1) ? v[k] : 0u;
    g >>= 1;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
