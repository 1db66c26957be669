// The block is 128 threads, or 256 when the caller asks for wide blocks: the kernel, written for 128 threads a
// block (blockIdx.x * 128), races in the wide case (thread 128 of block 0 and thread 0 of block 1 meet).
// expect: race.global
__global__ void offsets(int *out) {
  int i = blockIdx.x * 128 + threadIdx.x;
  out[i] = threadIdx.x;
}
void run(int *d, bool wide) {
  dim3 threads(128, 1);
  if (wide) {
    threads.x = 256;
  }
  offsets<<<8, threads>>>(d);
}
