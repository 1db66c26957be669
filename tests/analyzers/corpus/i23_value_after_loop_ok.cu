// An inclusive scan of seven passes that also keeps the mask n = 2 * i - 1 of its pass: after the loop n is the last
// pass's 127, so only thread 127 (which holds the block's total) publishes the total.
// expect: none
// kopt: launch scan grid=(64) block=(128, 1, 1) args=(data, totals)
__global__ void scan(unsigned* data, unsigned* totals) {
  __shared__ unsigned lt[129];
  const unsigned id = threadIdx.x;
  lt[id] = data[blockIdx.x * 128 + id];
  __syncthreads();
  unsigned n;
  for (unsigned i = 1; i < 128; i <<= 1) {
    n = 2 * i - 1;
    unsigned v = id >= i ? lt[id - i] : 0;
    __syncthreads();
    lt[id] += v;
    __syncthreads();
  }
  if ((id & n) == n) lt[128] = lt[id];
  __syncthreads();
  data[blockIdx.x * 128 + id] = lt[id];
  if (id == 0) totals[blockIdx.x] = lt[128];
}
