// The grid is declared from a run-time count, then its x set to 2048 / threads.x before the launch: 16 blocks of
// 128 threads: thread 0 of block 0 and thread 0 of block 8 fold onto one element.
// expect: race.global
__global__ void fold(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i % 1024] = blockIdx.x;
}
void run(int *d, int count) {
  dim3 threads(128, 1);
  dim3 grid(count / 128, 1);
  grid.x = 2048 / threads.x;
  fold<<<grid, threads>>>(d);
}
