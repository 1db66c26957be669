// A 1-D index over blocks of MAX threads (blockIdx.x * MAX + threadIdx.x) launched with blocks wider than MAX: thread
// MAX of block 0 and thread 0 of block 1 store to one element. The index is no matrix with rows of MAX, so no bound
// on n may be assumed from it. (With no launch found, MAX would be presumed the block: the kernel tiles by it.)
// expect: race.global
#define MAX 512
__global__ void mark(int *mask, int n) {
  int tid = blockIdx.x * MAX + threadIdx.x;
  if (tid < n) mask[tid] = threadIdx.x;
}
void run(int *mask, int n) { mark<<<(n + 1023) / 1024, 1024>>>(mask, n); }
