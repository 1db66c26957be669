// Shared-memory tiled transpose, bank conflicts removed by padding. A block of 32 x BY threads moves one TILE x TILE
// tile (TILE = 64 or 32): it reads the tile's rows from x into shared memory and, after a barrier, reads the tile by
// columns to write rows of y. Both global sides are coalesced and, for interior tiles of matrices whose rows start
// on 16-byte boundaries, 128-bit. Row phase: a warp instruction loads a 4-row x 32-column patch of x, lane
// (q = lane / 8, k = lane % 8) taking the float4 x[r + q][c + 4k .. c + 4k + 3] (4 full 128 B rows) and storing its
// 4 floats to the tile one by one. Column phase: a warp reads a 32-row x 4-column patch of the tile, lane (q, k)
// collecting tile[r + 4k + e][c + q], e = 0..3, down a column and storing them as the float4
// y[c + q][r + 4k .. r + 4k + 3] (4 full 128 B rows of y).
// Banks: with a row stride of TILE words element (r, c) would sit in bank c % 32, 8 banks for the 32 lanes of a row
// patch (4-way conflict) and 4 for a column patch (8-way). The tile is declared [TILE][TILE + 1]: with a row stride
// of TILE + 1 words element (r, c) sits in bank (r + c) % 32, and the lanes' r + c are {4k + q} + const in both
// phases: 32 different banks. The padding costs no instructions (the addresses stay base + immediate offsets).
// Each thread moves TILE * TILE / (32 * BY) floats and issues all its loads before its first shared store (16 KB in
// flight per 64 x 64 tile). Blocks are rasterized in groups of GROUP tile-rows: grid x walks down GROUP tiles, then
// y moves one tile right, so the blocks resident at a time read runs of several KB of x rows and write runs of
// several KB of y rows, instead of streaming x while scattering one tile-width piece over every row of y. Edge tiles,
// and matrices whose rows or cols are not multiples of 4, take a scalar path with bounds checks (any shape,
// including 1).
// kopt: task transpose
// kopt: tune TILE in [64, 32]
// kopt: tune BY in [8, 16]
// kopt: tune GROUP in [16, 1]
// kopt: restrict 4 * BY <= TILE
// kopt: launch transpose_padded grid=(GROUP, cdiv(cols, TILE), cdiv(cdiv(rows, TILE), GROUP)) block=(32, BY) args=(x, y, rows, cols)

#define PAD 1                            // the padding: one extra word per shared row
#define ROWS_PER_WARP (TILE / 4 / BY)    // 4-row patches per warp in each 32-column strip (TILE / 32 strips)
#define NPATCH (TILE * TILE / 128 / BY)  // 4 x 32 patches per warp = float4 vectors per thread
// Blocks per SM to keep registers for: all the threads of an SM (2048; 1536 on sm_86/87/89/120).
#if __CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200
#define MIN_BLOCKS (48 / BY)
#else
#define MIN_BLOCKS (64 / BY)
#endif

extern "C" __global__ void __launch_bounds__(32 * BY, MIN_BLOCKS) transpose_padded(const float* __restrict__ x,
                                                                                float* __restrict__ y, int rows,
                                                                                int cols) {
  __shared__ float tile[TILE][TILE + PAD];
  const int r0 = (blockIdx.z * GROUP + blockIdx.x) * TILE, c0 = blockIdx.y * TILE;
  if (r0 >= rows) return;  // the last group of tile-rows may be partial (block-uniform, before any barrier)
  const int w = threadIdx.y, q = threadIdx.x >> 3, k = threadIdx.x & 7;
  // 128-bit path: an interior tile of a matrix whose rows start on 16-byte boundaries (x and y themselves are
  // cudaMalloc'd, 256-byte aligned).
  const bool full = rows % 4 == 0 && cols % 4 == 0 && r0 + TILE <= rows && c0 + TILE <= cols;

  // Row phase, patch i: x[r0 + rr][c0 + cc + e] -> tile[rr][cc + e], rr = 4 * (w + BY * (i % ROWS_PER_WARP)) + q,
  // cc = 32 * (i / ROWS_PER_WARP) + 4 * k, e = 0..3.
  if (full) {
    const float* src = x + (long long)(r0 + 4 * w + q) * cols + c0 + 4 * k;
    float4 v[NPATCH];
#pragma unroll
    for (int i = 0; i < NPATCH; ++i) {  // every load in flight before the first shared store
      const int dr = 4 * BY * (i % ROWS_PER_WARP), dc = 32 * (i / ROWS_PER_WARP);
      v[i] = *reinterpret_cast<const float4*>(src + (long long)dr * cols + dc);
    }
#pragma unroll
    for (int i = 0; i < NPATCH; ++i) {
      const int rr = 4 * (w + BY * (i % ROWS_PER_WARP)) + q, cc = 32 * (i / ROWS_PER_WARP) + 4 * k;
      tile[rr][cc + 0] = v[i].x;
      tile[rr][cc + 1] = v[i].y;
      tile[rr][cc + 2] = v[i].z;
      tile[rr][cc + 3] = v[i].w;
    }
  } else {  // edge tile: one float per lane, a warp reads 32 consecutive floats of a row
#pragma unroll
    for (int j = 0; j < TILE * TILE / (32 * BY); ++j) {
      const int rr = w + BY * (j % (TILE / BY)), cc = threadIdx.x + 32 * (j / (TILE / BY));
      // Clamped, not branched: a slot outside x gets a copy of an element inside, which is never written out.
      const int r = min(r0 + rr, rows - 1), c = min(c0 + cc, cols - 1);
      tile[rr][cc] = x[(long long)r * cols + c];
    }
  }
  __syncthreads();
  // Column phase, patch i: tile[rr + e][cc] -> y[c0 + cc][r0 + rr + e], cc = 4 * (w + BY * (i % ROWS_PER_WARP)) + q,
  // rr = 32 * (i / ROWS_PER_WARP) + 4 * k: 4 floats down a tile column, one float4 along a row of y.
  if (full) {
    float* dst = y + (long long)(c0 + 4 * w + q) * rows + r0 + 4 * k;
#pragma unroll
    for (int i = 0; i < NPATCH; ++i) {
      const int cc = 4 * (w + BY * (i % ROWS_PER_WARP)) + q, rr = 32 * (i / ROWS_PER_WARP) + 4 * k;
      const int dc = 4 * BY * (i % ROWS_PER_WARP), dr = 32 * (i / ROWS_PER_WARP);
      const float4 o = make_float4(tile[rr + 0][cc], tile[rr + 1][cc], tile[rr + 2][cc], tile[rr + 3][cc]);
      *reinterpret_cast<float4*>(dst + (long long)dc * rows + dr) = o;
    }
  } else {  // edge tile: a warp writes 32 consecutive floats of a row of y, bounds-checked
#pragma unroll
    for (int j = 0; j < TILE * TILE / (32 * BY); ++j) {
      const int cc = w + BY * (j % (TILE / BY)), rr = threadIdx.x + 32 * (j / (TILE / BY));
      if (c0 + cc < cols && r0 + rr < rows) y[(long long)(c0 + cc) * rows + r0 + rr] = tile[rr][cc];
    }
  }
}
