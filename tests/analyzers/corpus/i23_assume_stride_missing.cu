// Without an assumption on stride the analyzer must consider stride == 0, where all threads collide.
// expect: race.global, coalescing
// kopt: launch scatter grid=(8) block=(128) args=(x, out, stride, n)
__global__ void scatter(const float *x, float *out, int stride, int n) {
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n) out[i * stride] = x[i];
}
