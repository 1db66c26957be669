// The drawn tile index is read by the block before thread 0 has written it.
// expect: sync.missing
// kopt: launch work grid=(64) block=(256) args=(x, y, next)
__global__ void work(const float *x, float *y, unsigned *next) {
  __shared__ unsigned tile;
  if (threadIdx.x == 0) tile = atomicAdd(next, 1u);
  unsigned i = tile * 256 + threadIdx.x;
  y[i] = 2.0f * x[i];
}
