#include <cuda_runtime.h>
#include <cstdlib>
#define TILE 16

__global__ void transpose(const float* in, float* out, int rows, int cols) {
  int c = blockIdx.x * TILE + threadIdx.x;
  int r = blockIdx.y * TILE + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

void run(const float* d_in, float* d_out, int rows, int cols) {
  dim3 block(TILE, TILE);
  dim3 grid;
  grid.x = (cols + TILE - 1) / TILE;
  grid.y = (rows + TILE - 1) / TILE;
  transpose<<<grid, block>>>(d_in, d_out, rows, cols);
}
