// Privatized histogram that increments the shared bins without atomics.
// expect: race.shared
// kopt: launch histo_smem grid=(120) block=(256, 1, 1) args=(data, bins, n)
#define NBINS 64
__global__ void histo_smem(const int* __restrict__ keys, unsigned int* __restrict__ bins, int n) {
  __shared__ unsigned int local[NBINS];
  if (threadIdx.x < NBINS) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int bin = keys[i] % NBINS;
    if (bin >= 0) local[bin] += 1;
  }
  __syncthreads();
  if (threadIdx.x < NBINS) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
