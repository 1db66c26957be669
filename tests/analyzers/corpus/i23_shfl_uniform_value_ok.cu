// A helper reads its rows at `8 * __shfl(row, k, 8)`, and the kernel passes row 0: a value every lane holds alike
// reads the same from whichever lane the shuffle takes it, so each warp reads and writes only its own 64 elements.
// expect: none
// kopt: launch swap_rows grid=(16) block=(128) args=(g)
__device__ void read_row(const float *s, float (&t)[2], int row) {
  unsigned lane = threadIdx.x % 32;
  t[0] = s[lane + 8 * __shfl_sync(0xffffffffu, row, 0, 8)];
  t[1] = s[32 + lane + 8 * __shfl_sync(0xffffffffu, row, 1, 8)];
}
__global__ void swap_rows(float *g) {
  float *w = g + 64 * (blockIdx.x * blockDim.x / 32 + threadIdx.x / 32);
  float t[2];
  read_row(w, t, 0);
  w[threadIdx.x % 32] = t[1];
  w[32 + threadIdx.x % 32] = t[0];
}
