// Privatized histogram: shared-memory bins with atomics, merged into global memory.
// expect: none
// kopt: launch histo_smem grid=(120) block=(256, 1, 1) args=(data, bins, n)
#define NBINS 256
__global__ void histo_smem(const unsigned int* __restrict__ data, unsigned int* __restrict__ bins, int n) {
  __shared__ unsigned int local[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned int v = data[i];
    atomicAdd(&local[v & 0xff], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}
