// The block is clamped in host code, but at 1024 threads (`min(n, 1024)`) while the kernel strides by 512: thread
// 512 of block 0 and thread 0 of block 1 update the same element.
// expect: race.global
#define STRIDE 512
__global__ void visit(int *level, int n) {
  int tid = blockIdx.x * STRIDE + threadIdx.x;
  if (tid < n) {
    level[tid] += 1;
  }
}
void run(int *level, int n) {
  int threads = min(n, 1024);
  visit<<<(n + threads - 1) / threads, threads>>>(level, n);
}
