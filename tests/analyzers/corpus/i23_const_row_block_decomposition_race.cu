// A 1-D index over blocks of MAX threads (blockIdx.x * MAX + threadIdx.x) with no launch declared: a block wider
// than MAX makes thread MAX of block 0 and thread 0 of block 1 store to one element. The index is no matrix with
// rows of MAX, so no bound on n may be assumed from it.
// expect: race.global
#define MAX 512
__global__ void mark(int *mask, int n) {
  int tid = blockIdx.x * MAX + threadIdx.x;
  if (tid < n) mask[tid] = threadIdx.x;
}
