// histogram's reference on the GPU (the check's reference_cuda; reference.py defines it): exact counts of each byte
// value in x[0:n], per block in shared memory, then added into the zeroed float64 output (exact below 2^53).
// kopt: launch histogram_ref grid=(min(cdiv(n, 256), 4096)) block=(256) args=(x, hist, n)
extern "C" __global__ void histogram_ref(const unsigned char* __restrict__ x, double* __restrict__ hist, int n) {
  __shared__ unsigned int counts[256];
  counts[threadIdx.x] = 0;
  __syncthreads();
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) atomicAdd(&counts[x[i]], 1u);
  __syncthreads();
  if (counts[threadIdx.x]) atomicAdd(&hist[threadIdx.x], (double)counts[threadIdx.x]);
}
