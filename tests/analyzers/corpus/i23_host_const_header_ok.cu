// One row per warp: lane 0 of each warp writes its row's result. The block is ROW_THREADS = 128 (a `static const
// int` of the included header), a multiple of the warp size, so no two warps of the grid share a row.
// expect: none
#include "i23_host_const_header.h"
__global__ void row_sums(float *out, const float *in, int rows) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32;
  if (row < rows && threadIdx.x % 32 == 0) {
    out[row] = in[t];
  }
}
void run(float *out, const float *in, int rows) {
  row_sums<<<(rows * 32 + ROW_THREADS - 1) / ROW_THREADS, ROW_THREADS>>>(out, in, rows);
}
