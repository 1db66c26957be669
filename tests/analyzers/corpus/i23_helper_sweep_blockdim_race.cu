// The same up-sweep, with the block's total read by every thread after the helper returns: the last pass's store
// (thread 0) and the other threads' reads have no barrier between them.
// expect: sync.missing, bank-conflict(8)
__device__ unsigned up_sweep(unsigned* s) {
  unsigned stride = 1;
  for (int d = blockDim.x; d > 0; d >>= 1) {
    __syncthreads();
    if (threadIdx.x < d) {
      const int i = 2 * stride * threadIdx.x;
      s[i + 2 * stride - 1] += s[i + stride - 1];
    }
    stride *= 2;
  }
  return stride;
}

__global__ void scan_total_unsynced(const unsigned* in, unsigned* out) {
  extern __shared__ unsigned s[];
  const unsigned t = threadIdx.x, base = 2 * blockIdx.x * blockDim.x;
  s[t] = in[base + t];
  s[t + blockDim.x] = in[base + t + blockDim.x];
  up_sweep(s);
  out[base + t] = s[2 * blockDim.x - 1];
}
