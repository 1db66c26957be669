// Shared bins are zeroed and immediately incremented by other threads: no barrier after the init.
// expect: sync.missing
// kopt: launch histo_smem grid=(120) block=(256, 1, 1) args=(data, bins, n)
__global__ void histo_smem(const unsigned char* __restrict__ data, unsigned int* __restrict__ bins, int n) {
  __shared__ unsigned int local[256];
  local[threadIdx.x] = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
