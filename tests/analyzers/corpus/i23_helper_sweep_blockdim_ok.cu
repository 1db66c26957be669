// An up-sweep in a helper whose loop runs log2(blockDim.x) + 1 times with a barrier at the top of each pass (as in
// Blelloch scans): the helper's barriers order the kernel's stores before it against the sweep, and the sweep's
// first passes against the store after it, for every block size the launch may choose (its unpadded strides do
// conflict in banks).
// expect: bank-conflict(8)
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

__global__ void scan_prepare(const unsigned* in, unsigned* out) {
  extern __shared__ unsigned s[];
  const unsigned t = threadIdx.x, base = 2 * blockIdx.x * blockDim.x;
  s[t] = in[base + t];
  s[t + blockDim.x] = in[base + t + blockDim.x];
  up_sweep(s);
  if (t == 0) {
    out[blockIdx.x] = s[2 * blockDim.x - 1];
    s[2 * blockDim.x - 1] = 0;
  }
}
