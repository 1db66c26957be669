// A software grid barrier (thread 0 of each block adds to a global counter and spins until every block has, then
// the block meets at __syncthreads): the partial sums every block writes before it are read by block 0 after it.
// expect: none
__device__ volatile int g_arrived = 0;

__device__ void grid_barrier(int goal) {
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd((int *)&g_arrived, 1);
    while (g_arrived < goal);
  }
  __syncthreads();
}

__global__ void two_phase(int *partial, int *total) {
  if (threadIdx.x == 0) partial[blockIdx.x] = blockIdx.x + 1;
  grid_barrier(gridDim.x);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int s = 0;
    for (int b = 0; b < gridDim.x; b++) s += partial[b];
    *total = s;
  }
}
