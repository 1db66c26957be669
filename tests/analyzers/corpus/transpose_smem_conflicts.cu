// Shared-memory transpose without padding: the column read hits one bank 32 times.
// expect: bank-conflict(32)
// kopt: launch transpose_tiled grid=(cdiv(n, 32), cdiv(n, 32)) block=(32, 8, 1) args=(odata, idata, n)
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_tiled(float* odata, const float* idata, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < n && y + j < n) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < n && y + j < n) odata[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
