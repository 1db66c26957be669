// The block is set under `#ifdef WIDE_BLOCKS` (not defined) or to 128 in the `#else`: the host pass compiles the
// `#else`, so the kernel, written for 128 threads a block (blockIdx.x * 128), runs with 128 and each thread owns
// its element. A later assignment (for another launch) does not reach this launch.
// expect: none
__global__ void offsets(int *out, int n) {
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n) out[i] = threadIdx.x;
}
__global__ void other(int *out) { out[threadIdx.x] = 1; }
void run(int *d, int n) {
  dim3 threads(32, 1);
  dim3 grid(8, 1);
#ifdef WIDE_BLOCKS
  threads.x = 512;
#else
  threads.x = 128;
#endif
  offsets<<<grid, threads>>>(d, n);
  threads.x = 512;
  other<<<1, threads>>>(d);
}
