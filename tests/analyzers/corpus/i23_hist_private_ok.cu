// Per-block shared histogram: cleared, barrier, atomic adds, barrier, merged into the global bins with atomics.
// expect: none
// kopt: launch hist grid=(32) block=(256) args=(x, n, bins)
__global__ void hist(const unsigned char *x, int n, unsigned *bins) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 32 * 256) atomicAdd(&h[x[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
