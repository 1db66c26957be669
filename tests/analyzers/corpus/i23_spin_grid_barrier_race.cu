// The same two phases, but the "barrier" only counts arrivals and never waits for the other blocks (no spin on the
// counter): block 0 may read a partial sum another block has not written yet.
// expect: race.global
__device__ volatile int g_arrived = 0;

__device__ void grid_barrier(int goal) {
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd((int *)&g_arrived, 1);
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
