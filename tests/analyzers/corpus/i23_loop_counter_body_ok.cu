// The loop counter is advanced at the end of the body by a uniform step: every thread runs the same trips.
// expect: none
// kopt: launch chunks grid=(1) block=(128) args=(x, y, n)
__global__ void chunks(const float *x, float *y, int n) {
  __shared__ float s[128];
  int i = 0;
  while (i < n) {
    s[threadIdx.x] = x[i + threadIdx.x];
    __syncthreads();
    y[i + threadIdx.x] = s[127 - threadIdx.x];
    __syncthreads();
    i += 128;
  }
}
