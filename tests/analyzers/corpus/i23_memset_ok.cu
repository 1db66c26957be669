// Thread 0 clears the shared histogram with memset before anyone adds to it.
// expect: none
// kopt: launch hist grid=(4) block=(256) args=(x, bins)
__global__ void hist(const unsigned char *x, unsigned *bins) {
  __shared__ unsigned h[256];
  if (threadIdx.x == 0) memset(h, 0, sizeof(h));
  __syncthreads();
  atomicAdd(&h[x[blockIdx.x * 256 + threadIdx.x]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
