// Shared-memory tiled transpose, bank conflicts removed by an XOR swizzle instead of padding. Same schedule as
// transpose_padded.cu (a 32 x BY block moves a 32 x 32 tile: coalesced row reads of x, barrier, coalesced row
// writes of y), but the tile keeps its dense [32][32] shape and element (r, c) is stored at column c ^ r. For a
// row write (fixed r, lanes vary c) the columns c ^ r are a permutation of 0..31; for a column read (fixed c, lanes
// vary r) the banks c ^ r are again all different. No shared memory is wasted, and the layout generalizes to the
// XOR swizzles of tensor-core GEMM operand tiles in shared memory. Edge tiles are bounds-checked on both sides.
// kopt: task transpose
// kopt: tune BY in [8, 4, 16, 32]
// kopt: launch transpose_swizzled grid=(cdiv(cols, 32), cdiv(rows, 32)) block=(32, BY) args=(x, y, rows, cols)

#define TILE 32

extern "C" __global__ void __launch_bounds__(TILE * BY) transpose_swizzled(const float* __restrict__ x,
                                                                            float* __restrict__ y, int rows,
                                                                            int cols) {
  __shared__ float tile[TILE][TILE];
  const int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
  const int tx = threadIdx.x, ty = threadIdx.y;

  // x[r0 + i][c0 + tx] -> tile[i][tx ^ i]
#pragma unroll
  for (int i = ty; i < TILE; i += BY) {
    const int r = r0 + i, c = c0 + tx;
    if (r < rows && c < cols) tile[i][tx ^ i] = x[(long long)r * cols + c];
  }
  __syncthreads();
  // y[c0 + j][r0 + tx] = element (tx, j) of the tile, stored at tile[tx][j ^ tx].
#pragma unroll
  for (int j = ty; j < TILE; j += BY) {
    const int c = c0 + j, r = r0 + tx;
    if (c < cols && r < rows) y[(long long)c * rows + r] = tile[tx][j ^ tx];
  }
}
