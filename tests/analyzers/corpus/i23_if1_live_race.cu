// The #if 1 branch holds the live kernel, which lacks its barrier; the #else branch is dead.
// expect: sync.missing
// kopt: launch live grid=(4) block=(64) args=(x, y)
#if 1
__global__ void live(const float *x, float *y) {
  __shared__ float s[64];
  s[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
  y[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
#else
__global__ void live(const float *x, float *y) {
  y[blockIdx.x * 64 + threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
}
#endif
