// Each thread writes out[i * stride]: distinct for any positive stride, which the assumption states (the
// strided stores are uncoalesced, a performance finding).
// expect: coalescing
// kopt: assume stride > 0 && n > 0
// kopt: launch scatter grid=(8) block=(128) args=(x, out, stride, n)
__global__ void scatter(const float *x, float *out, int stride, int n) {
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n) out[i * stride] = x[i];
}
