// Shared-memory tiled transpose, bank conflicts removed by an XOR swizzle instead of padding. Same schedule as
// transpose_padded.cu: a block of 32 x BY threads moves one TILE x TILE tile (TILE = 64 or 32). Row phase: a warp
// instruction loads a 4-row x 32-column patch of x, lane (q = lane / 8, k = lane % 8) taking the float4
// x[r + q][c + 4k .. c + 4k + 3] and storing its 4 floats to the tile one by one. Column phase, after a barrier: a
// warp reads a 32-row x 4-column patch, lane (q, k) collecting tile element (r + 4k + e, c + q), e = 0..3, and
// storing them as the float4 y[c + q][r + 4k .. r + 4k + 3]. Both global sides are coalesced (4 full 128 B rows per
// instruction) and 128-bit for interior tiles of matrices whose rows start on 16-byte boundaries.
// Layout: the tile keeps its dense [TILE][TILE] shape and element (r, c) is stored at column c ^ (r % 32), which only
// permutes the low 5 bits of c (within a 32-column strip of the same row). Its bank is (c % 32) ^ (r % 32). In a row
// patch (rows r + q, columns c + 4k + e; r a multiple of 4, c of 32) that is 4 * (k ^ (r / 4 % 8)) + (e ^ q); in a
// column patch (rows r + 4k + e, columns c + q; r a multiple of 32, c of 4) it is 4 * ((c / 4 % 8) ^ k) + (q ^ e):
// 32 different banks either way. A plain [TILE][TILE] tile would put (r, c) in bank c % 32: 8 banks for a row patch (4-way conflict), 4 for a
// column patch (8-way). No shared memory is wasted, and the layout generalizes to the XOR swizzles of tensor-core
// GEMM operand tiles. The XOR is computed once per thread, not per access (see key below): written naively per
// element it adds a LOP3 and an IMAD to every shared access, which padding folds into immediate offsets for free.
// Each thread moves TILE * TILE / (32 * BY) floats and issues all its loads before its first shared store (16 KB in
// flight per 64 x 64 tile). Blocks are rasterized in groups of GROUP tile-rows: grid x walks down GROUP tiles, then
// y moves one tile right, so the blocks resident at a time read runs of several KB of x rows and write runs of
// several KB of y rows, instead of streaming x while scattering one tile-width piece over every row of y. Edge
// tiles, and matrices whose rows or cols are not multiples of 4, take a scalar path with bounds checks (any shape,
// including 1).
// kopt: task transpose
// kopt: tune TILE in [64, 32]
// kopt: tune BY in [8, 16]
// kopt: tune GROUP in [16, 1]
// kopt: restrict 4 * BY <= TILE
// kopt: launch transpose_swizzled grid=(GROUP, cdiv(cols, TILE), cdiv(cdiv(rows, TILE), GROUP)) block=(32, BY) args=(x, y, rows, cols)

#define SWZ(r, c) ((c) ^ ((r) & 31))     // the swizzle: shared column of tile element (r, c)
#define ROWS_PER_WARP (TILE / 4 / BY)    // 4-row patches per warp in each 32-column strip (TILE / 32 strips)
#define NPATCH (TILE * TILE / 128 / BY)  // 4 x 32 patches per warp = float4 vectors per thread
// Blocks per SM to keep registers for: all the threads of an SM (2048; 1536 on sm_86/87/89/120).
#if __CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200
#define MIN_BLOCKS (48 / BY)
#else
#define MIN_BLOCKS (64 / BY)
#endif

extern "C" __global__ void __launch_bounds__(32 * BY, MIN_BLOCKS) transpose_swizzled(const float* __restrict__ x,
                                                                                  float* __restrict__ y, int rows,
                                                                                  int cols) {
  static_assert(BY % 8 == 0, "the hoisted swizzle needs the rows (columns) of a thread to agree mod 32");
  __shared__ float tile[TILE][TILE];  // dense, no padding: element (r, c) lives at tile[r][SWZ(r, c)]
  const int r0 = (blockIdx.z * GROUP + blockIdx.x) * TILE, c0 = blockIdx.y * TILE;
  if (r0 >= rows) return;  // the last group of tile-rows may be partial (block-uniform, before any barrier)
  const int w = threadIdx.y, q = threadIdx.x >> 3, k = threadIdx.x & 7;
  // The swizzle, hoisted. The rows this thread stores in the row phase and the columns it reads in the column phase
  // are all 4 * w + q mod 32 (4 * BY is a multiple of 32); the other index is 4 * k + e mod 32. So the swizzled
  // column within a 32-column strip is (4 * k + e) ^ key in both phases, the same 4 values for every patch: the
  // compiler computes them once and the patches differ by immediate offsets, as with padding.
  const int key = (4 * w + q) & 31;
  // 128-bit path: an interior tile of a matrix whose rows start on 16-byte boundaries (x and y themselves are
  // cudaMalloc'd, 256-byte aligned).
  const bool full = rows % 4 == 0 && cols % 4 == 0 && r0 + TILE <= rows && c0 + TILE <= cols;

  // Row phase, patch i: x[r0 + rr][c0 + cc + e] -> tile[rr][SWZ(rr, cc + e)],
  // rr = 4 * (w + BY * (i % ROWS_PER_WARP)) + q, cc = 32 * (i / ROWS_PER_WARP) + 4 * k, e = 0..3.
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
      // SWZ(rr, cc + e) = strip + ((4 * k + e) ^ key): rr % 32 = key, (cc + e) % 32 = 4 * k + e.
      const int rr = 4 * (w + BY * (i % ROWS_PER_WARP)) + q, strip = 32 * (i / ROWS_PER_WARP);
      tile[rr][strip + ((4 * k + 0) ^ key)] = v[i].x;
      tile[rr][strip + ((4 * k + 1) ^ key)] = v[i].y;
      tile[rr][strip + ((4 * k + 2) ^ key)] = v[i].z;
      tile[rr][strip + ((4 * k + 3) ^ key)] = v[i].w;
    }
  } else {  // edge tile: one float per lane, a warp reads 32 consecutive floats of a row
#pragma unroll
    for (int j = 0; j < TILE * TILE / (32 * BY); ++j) {
      const int rr = w + BY * (j % (TILE / BY)), cc = threadIdx.x + 32 * (j / (TILE / BY));
      // Clamped, not branched: a slot outside x gets a copy of an element inside, which is never written out.
      const int r = min(r0 + rr, rows - 1), c = min(c0 + cc, cols - 1);
      tile[rr][SWZ(rr, cc)] = x[(long long)r * cols + c];
    }
  }
  __syncthreads();
  // Column phase, patch i: tile[rr + e][SWZ(rr + e, cc)] -> y[c0 + cc][r0 + rr + e],
  // cc = 4 * (w + BY * (i % ROWS_PER_WARP)) + q, rr = 32 * (i / ROWS_PER_WARP) + 4 * k: 4 floats down a tile column,
  // one float4 along a row of y.
  if (full) {
    float* dst = y + (long long)(c0 + 4 * w + q) * rows + r0 + 4 * k;
#pragma unroll
    for (int i = 0; i < NPATCH; ++i) {
      const int cc = 4 * (w + BY * (i % ROWS_PER_WARP)) + q, rr = 32 * (i / ROWS_PER_WARP) + 4 * k;
      const int dc = 4 * BY * (i % ROWS_PER_WARP), dr = 32 * (i / ROWS_PER_WARP);
      const int strip = cc & ~31;  // SWZ(rr + e, cc) = strip + ((4 * k + e) ^ key)
      const float4 o = make_float4(tile[rr + 0][strip + ((4 * k + 0) ^ key)],
                                   tile[rr + 1][strip + ((4 * k + 1) ^ key)],
                                   tile[rr + 2][strip + ((4 * k + 2) ^ key)],
                                   tile[rr + 3][strip + ((4 * k + 3) ^ key)]);
      *reinterpret_cast<float4*>(dst + (long long)dc * rows + dr) = o;
    }
  } else {  // edge tile: a warp writes 32 consecutive floats of a row of y, bounds-checked
#pragma unroll
    for (int j = 0; j < TILE * TILE / (32 * BY); ++j) {
      const int cc = w + BY * (j % (TILE / BY)), rr = threadIdx.x + 32 * (j / (TILE / BY));
      if (c0 + cc < cols && r0 + rr < rows) y[(long long)(c0 + cc) * rows + r0 + rr] = tile[rr][SWZ(rr, cc)];
    }
  }
}
