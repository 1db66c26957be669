// A racy draft of the kernel is kept under #if 0 and a debugging variant under an undefined #ifdef;
// only the live kernel counts.
// expect: none
// kopt: launch live grid=(4) block=(64) args=(x, y)
#if 0
__global__ void draft(float *x) {
  __shared__ float s[64];
  s[threadIdx.x] = x[threadIdx.x];
  x[threadIdx.x] = s[63 - threadIdx.x];
}
#endif
#ifdef KOPT_TEST_DEBUG_RACE
__global__ void debug(float *x) { x[0] = threadIdx.x; }
#endif
__global__ void live(const float *x, float *y) {
  __shared__ float s[64];
  s[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  y[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
