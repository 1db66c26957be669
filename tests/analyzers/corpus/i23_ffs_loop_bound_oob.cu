// The same loop over a 16-entry table, launched with 2^20 threads: __ffs(stride) - 1 is 20, past the table.
// expect: bounds.shared
// kopt: launch gray grid=(16384) block=(64) args=(table, out)
__global__ void gray(const unsigned *table, unsigned *out) {
  __shared__ unsigned v[16];
  if (threadIdx.x < 16) v[threadIdx.x] = table[threadIdx.x];
  __syncthreads();
  unsigned stride = gridDim.x * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x, x = 0;
  for (unsigned k = 0; k < __ffs(stride) - 1; k++) {
    x ^= (g & 1) ? v[k] : 0u;
    g >>= 1;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
