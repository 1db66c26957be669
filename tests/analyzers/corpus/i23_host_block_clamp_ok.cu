// The block is clamped in host code (`threads = n; if (n > 512) threads = 512;`): at most 512 threads, so
// `blockIdx.x * 512 + threadIdx.x` is each thread's own element (one block of n <= 512 threads, or blocks of 512).
// expect: none
#define MAX_THREADS 512
__global__ void visit(int *level, int n) {
  int tid = blockIdx.x * MAX_THREADS + threadIdx.x;
  if (tid < n) {
    level[tid] += 1;
  }
}
void run(int *level, int n) {
  int blocks = 1;
  int threads = n;
  if (n > MAX_THREADS) {
    blocks = (n + MAX_THREADS - 1) / MAX_THREADS;
    threads = MAX_THREADS;
  }
  dim3 grid(blocks, 1, 1);
  dim3 block(threads, 1, 1);
  visit<<<grid, block>>>(level, n);
}
