// Shared-memory tiled transpose, bank conflicts removed by padding. A block of 32 x BY threads moves one 32 x 32
// tile: it reads the tile's rows from x (coalesced: a warp reads 32 consecutive floats), stores them into shared
// memory, and after a barrier reads the tile by columns to write rows of y (coalesced again). Reading a column of
// a [32][32] float tile would hit one bank 32 times (the row stride is 32 words); with a row stride of 33 words
// element (r, c) sits in bank (r + c) % 32, so the 32 lanes of a column read hit 32 different banks. Each thread
// handles 32 / BY elements. Edge tiles are bounds-checked on both sides (any rows and cols, including 1).
// kopt: task transpose
// kopt: tune BY in [8, 4, 16, 32]
// kopt: launch transpose_padded grid=(cdiv(cols, 32), cdiv(rows, 32)) block=(32, BY) args=(x, y, rows, cols)

#define TILE 32

extern "C" __global__ void __launch_bounds__(TILE * BY) transpose_padded(const float* __restrict__ x,
                                                                          float* __restrict__ y, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];  // +1 word per row: the padding
  const int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
  const int tx = threadIdx.x, ty = threadIdx.y;

  // x[r0 + i][c0 + tx] -> tile[i][tx]
#pragma unroll
  for (int i = ty; i < TILE; i += BY) {
    const int r = r0 + i, c = c0 + tx;
    if (r < rows && c < cols) tile[i][tx] = x[(long long)r * cols + c];
  }
  __syncthreads();
  // tile[tx][j] -> y[c0 + j][r0 + tx]: lanes walk down a tile column, which the padding spreads over 32 banks.
#pragma unroll
  for (int j = ty; j < TILE; j += BY) {
    const int c = c0 + j, r = r0 + tx;
    if (c < cols && r < rows) y[(long long)c * rows + r] = tile[tx][j];
  }
}
