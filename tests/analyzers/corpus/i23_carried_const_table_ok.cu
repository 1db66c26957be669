// A tile loop that skips the tiles a table of bounds marks empty: the table is a `const int *` parameter, read at
// an index the same in every thread, so every thread skips alike and reaches the same barriers.
// expect: none
// kopt: launch tiles grid=(64) block=(128) args=(bounds, in, out)
__global__ void tiles(const int *bounds, const float *in, float *out) {
  __shared__ float s[128];
  int kbc = blockIdx.x * 64;
  int stop = kbc + 64;
  while (kbc < stop) {
    int len = bounds[kbc / 8];
    if (len == 0) {
      kbc += 8;
      kbc -= kbc % 8;
      continue;
    }
    s[threadIdx.x] = in[kbc * 128 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[kbc] = s[127] * len;
    __syncthreads();
    kbc += 8;
    kbc -= kbc % 8;
  }
}
