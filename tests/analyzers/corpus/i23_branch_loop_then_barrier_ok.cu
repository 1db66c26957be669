// A loop with a branch inside, under a thread-dependent `if`, then a barrier and a tree reduction: the loop has no
// barrier, so every thread reaches the reduction's phases alike (the state after the nested branch carries the
// loop's phase out of the `if`).
// expect: none
// kopt: launch clamp_then_sum grid=(cdiv(n, 256)) block=(256, 1, 1) args=(codes, sums, n, c)
__global__ void clamp_then_sum(int* codes, float* sums, int n, int c) {
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
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = buf[0];
}
