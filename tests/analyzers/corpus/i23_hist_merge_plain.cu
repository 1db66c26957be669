// The merge into the global bins uses a plain += : blocks overwrite each other's counts.
// expect: race.global
// kopt: launch hist grid=(32) block=(256) args=(x, n, bins)
__global__ void hist(const unsigned char *x, int n, unsigned *bins) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 32 * 256) atomicAdd(&h[x[i]], 1u);
  __syncthreads();
  bins[threadIdx.x] += h[threadIdx.x];
}
