// The same compaction with each thread scanning two buckets in a loop: a block can now take up to twice
// blockDim.x slots, and the keys past blockDim.x land on the values' part of the buffer.
// expect: race.shared
__global__ void compact(const int *keys, const float *vals, int *out_k, float *out_v, int n) {
  extern __shared__ int smem[];
  int *bk = smem;
  float *bv = (float *)&smem[blockDim.x];
  __shared__ unsigned block_n;
  if (threadIdx.x == 0) block_n = 0;
  __syncthreads();
  for (int r = 0; r < 2; ++r) {
    int i = (blockIdx.x * 2 + r) * blockDim.x + threadIdx.x;
    if (i < n && keys[i] >= 0) {
      unsigned s = atomicAdd(&block_n, 1);
      bk[s] = keys[i];
      bv[s] = vals[i];
    }
  }
  __syncthreads();
  if (threadIdx.x < block_n) {
    out_k[blockIdx.x * blockDim.x + threadIdx.x] = bk[threadIdx.x];
    out_v[blockIdx.x * blockDim.x + threadIdx.x] = bv[threadIdx.x];
  }
}
