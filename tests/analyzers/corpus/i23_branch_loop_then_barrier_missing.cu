// The same reduction with the barrier after the first store left out: a thread reads its neighbour's slot before
// the neighbour has written it.
// expect: sync.missing
// kopt: launch clamp_then_sum_unsynced grid=(cdiv(n, 256)) block=(256, 1, 1) args=(codes, sums, n, c)
__global__ void clamp_then_sum_unsynced(int* codes, float* sums, int n, int c) {
  __shared__ float buf[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) {
    for (int y = 0; y < c; ++y) {
      int v = codes[y * n + i];
      if (v >= 7) v = 0;
      codes[y * n + i] = v;
    }
  }
  buf[threadIdx.x] = i < n ? (float)codes[i] : 0.0f;
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = buf[0];
}
