// The same helper handed the thread's own lane as its row: the shuffled rows differ between lanes, and a lane's
// read lands on an element another warp writes.
// expect: race.global
// kopt: launch swap_rows grid=(16) block=(128) args=(g)
__device__ void read_row(const float *s, float (&t)[2], int row) {
  unsigned lane = threadIdx.x % 32;
  t[0] = s[lane + 8 * __shfl_sync(0xffffffffu, row, 0, 8)];
  t[1] = s[32 + lane + 8 * __shfl_sync(0xffffffffu, row, 1, 8)];
}
__global__ void swap_rows(float *g) {
  float *w = g + 64 * (blockIdx.x * blockDim.x / 32 + threadIdx.x / 32);
  float t[2];
  read_row(w, t, threadIdx.x % 32);
  w[threadIdx.x % 32] = t[1];
  w[32 + threadIdx.x % 32] = t[0];
}
