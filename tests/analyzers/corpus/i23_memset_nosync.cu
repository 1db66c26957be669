// Thread 0 clears the shared histogram but nobody waits for it before adding.
// expect: sync.missing
// kopt: launch hist grid=(4) block=(256) args=(x, bins)
__global__ void hist(const unsigned char *x, unsigned *bins) {
  __shared__ unsigned h[256];
  if (threadIdx.x == 0) memset(h, 0, sizeof(h));
  atomicAdd(&h[x[blockIdx.x * 256 + threadIdx.x]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
