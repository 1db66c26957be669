// A variant where the assumption admits width == 0: every block writes its own value to y[0].
// expect: race.global
// kopt: assume width >= 0
// kopt: launch firsts grid=(64) block=(128) args=(x, y, width)
__global__ void firsts(const float *x, float *y, int width) {
  if (threadIdx.x == 0) y[blockIdx.x * width] = x[blockIdx.x];
}
