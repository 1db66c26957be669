// The grid is declared from a run-time count, then its x set to 1024 / threads.x before the launch: 8 blocks of
// 128 threads, so the index modulo 1024 is each thread's own.
// expect: none
__global__ void fold(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i % 1024] = blockIdx.x;
}
void run(int *d, int count) {
  dim3 threads(128, 1);
  dim3 grid(count / 128, 1);
  grid.x = 1024 / threads.x;
  fold<<<grid, threads>>>(d);
}
