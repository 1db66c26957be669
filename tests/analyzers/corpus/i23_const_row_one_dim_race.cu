// A 1-D index written as blockIdx.x * 32 + threadIdx.x is not a matrix with rows of 32: thread 0 stores
// out[32] while thread 32 (block 1) loads it. No row-length assumption may bound n here.
// expect: race.global
// kopt: launch shift grid=(4) block=(32) args=(out, n)
__global__ void shift(float *out, int n) {
  int i = blockIdx.x * 32 + threadIdx.x;
  if (i < n) out[i + 32] = 2.f * out[i];
}
