// Each thread that finds a used bucket takes one slot of a block counter reset to 0: at most one slot per thread,
// so the keys fill the first blockDim.x entries of the dynamic buffer and the values the next ones.
// expect: none
__global__ void compact(const int *keys, const float *vals, int *out_k, float *out_v, unsigned long long *total,
                        int n) {
  extern __shared__ int smem[];
  int *bk = smem;
  float *bv = (float *)&smem[blockDim.x];
  __shared__ unsigned block_n;
  __shared__ unsigned long long base;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) block_n = 0;
  __syncthreads();
  if (i < n && keys[i] >= 0) {
    unsigned s = atomicAdd(&block_n, 1);
    bk[s] = keys[i];
    bv[s] = vals[i];
  }
  __syncthreads();
  if (threadIdx.x == 0) base = atomicAdd(total, (unsigned long long)block_n);
  __syncthreads();
  if (threadIdx.x < block_n) {
    out_k[base + threadIdx.x] = bk[threadIdx.x];
    out_v[base + threadIdx.x] = bv[threadIdx.x];
  }
}
