// The counter's step depends on the thread, so threads run different numbers of barriers.
// expect: barrier.divergent
// kopt: launch chunks grid=(1) block=(128) args=(x, y, n)
__global__ void chunks(const float *x, float *y, int n) {
  __shared__ float s[128];
  int i = 0;
  while (i < n) {
    s[threadIdx.x] = x[i];
    __syncthreads();
    y[threadIdx.x] += s[127 - threadIdx.x];
    __syncthreads();
    i += 1 + threadIdx.x;
  }
}
