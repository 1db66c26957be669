// The block is widened to 256 threads before the launch (and narrowed again after it, for another kernel): the
// kernel, written for 128 threads a block (blockIdx.x * 128), runs with 256, so thread 128 of block 0 and
// thread 0 of block 1 store to one element.
// expect: race.global
__global__ void offsets(int *out) {
  int i = blockIdx.x * 128 + threadIdx.x;
  out[i] = threadIdx.x;
}
__global__ void other(int *out) { out[threadIdx.x] = 1; }
void run(int *d) {
  dim3 threads(128, 1);
  threads.x = 256;
  offsets<<<8, threads>>>(d);
  threads.x = 128;
  other<<<1, threads>>>(d);
}
