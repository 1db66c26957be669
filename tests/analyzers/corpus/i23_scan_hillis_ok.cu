// Hillis-Steele inclusive scan with double buffering: read one buffer, write the other, barrier.
// expect: none
// kopt: launch scan grid=(16) block=(256) args=(x, y)
__global__ void scan(const float *x, float *y) {
  __shared__ float buf[2][256];
  int t = threadIdx.x, in = 0;
  buf[0][t] = x[blockIdx.x * 256 + t];
  __syncthreads();
  for (int d = 1; d < 256; d *= 2) {
    float v = buf[in][t];
    if (t >= d) v += buf[in][t - d];
    buf[1 - in][t] = v;
    __syncthreads();
    in = 1 - in;
  }
  y[blockIdx.x * 256 + t] = buf[in][t];
}
