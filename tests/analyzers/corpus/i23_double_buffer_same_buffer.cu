// The prefetch writes the buffer being read in this iteration (cur instead of 1 - cur): other threads read
// the freshly written elements with no barrier after the writes.
// expect: sync.missing
// kopt: launch pipe grid=(8) block=(128) args=(x, y, tiles)
__global__ void pipe(const float *x, float *y, int tiles) {
  __shared__ float buf[2][128];
  buf[0][threadIdx.x] = x[blockIdx.x * 128 * tiles + threadIdx.x];
  __syncthreads();
  float acc = 0.f;
  for (int t = 0; t < tiles; t++) {
    int cur = t % 2;
    if (t + 1 < tiles) buf[cur][threadIdx.x] = x[(blockIdx.x * tiles + t + 1) * 128 + threadIdx.x];
    acc += buf[cur][127 - threadIdx.x];
    __syncthreads();
  }
  y[blockIdx.x * 128 + threadIdx.x] = acc;
}
