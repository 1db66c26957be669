// Dynamic tile scheduling: thread 0 draws the block's tile with an atomic ticket and shares it; each
// ticket is distinct, so blocks never touch the same tile.
// expect: none
// kopt: launch work grid=(64) block=(256) args=(x, y, next)
__global__ void work(const float *x, float *y, unsigned *next) {
  __shared__ unsigned tile;
  if (threadIdx.x == 0) tile = atomicAdd(next, 1u);
  __syncthreads();
  unsigned i = tile * 256 + threadIdx.x;
  y[i] = 2.0f * x[i];
}
