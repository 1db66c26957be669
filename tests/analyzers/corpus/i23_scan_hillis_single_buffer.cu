// Hillis-Steele scan in place in one buffer: a thread reads t - d while thread t - d overwrites it.
// expect: race.shared
// kopt: launch scan grid=(16) block=(256) args=(x, y)
__global__ void scan(const float *x, float *y) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  buf[t] = x[blockIdx.x * 256 + t];
  __syncthreads();
  for (int d = 1; d < 256; d *= 2) {
    if (t >= d) buf[t] += buf[t - d];
    __syncthreads();
  }
  y[blockIdx.x * 256 + t] = buf[t];
}
