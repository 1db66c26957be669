// One row per block, thread 0 writes the row's first element; with width >= 1 the rows are distinct.
// expect: none
// kopt: assume width >= 1
// kopt: launch firsts grid=(64) block=(128) args=(x, y, width)
__global__ void firsts(const float *x, float *y, int width) {
  if (threadIdx.x == 0) y[blockIdx.x * width] = x[blockIdx.x * width];
}
