// Ampere-style tensor-core GEMM: C (f32, M x N) = A (bf16, M x K, row-major) @ B (bf16, K x N, row-major), with
// mma.sync.m16n8k16 (HMMA), ldmatrix (LDSM) and a multistage cp.async pipeline (LDGSTS). Runs on sm_80 and later.
//
// Schedule. A block of WARPS_M x WARPS_N warps owns a BM x BN tile of C; each warp owns a (BM / WARPS_M) x
// (BN / WARPS_N) sub-tile (64 x 64 by default: 4 x 8 mma tiles of 16 x 8, 128 f32 accumulators per thread). The K
// loop walks BK-wide slices through STAGES shared-memory stages: while the warps multiply slice kt, the copies of
// slices kt + 1 .. kt + STAGES - 1 are in flight (cp.async.cg, 16 bytes per thread per copy, bypassing L1 and the
// registers). Exactly one cp.async group is committed per slice (empty ones past the end), so
// `cp.async.wait_group STAGES - 2` always means "slice kt + 1 has landed".
//
// Inside a slice, each 16-wide k step loads the warp's A fragments with ldmatrix.x4 (one 16 x 16 tile per
// instruction) and its B fragments with ldmatrix.x4.trans (B is stored k-major, i.e. row-major K x N, and the mma
// wants its "col" operand, so the 8 x 8 blocks are transposed on the way into registers: one instruction gives the
// fragments of two 8-wide n tiles). Fragments are double-buffered in registers: the next k step (or, at the last
// step of a slice, the first step of the next slice) is loaded before the mma of the current one.
//
// Shared-memory layout. Both tiles are stored dense, row by row, in 16-byte chunks (8 bf16), and chunk c of row r
// is stored at chunk c ^ f(r) (an XOR swizzle): f(r) = r % 8 for rows of 128 bytes or more (B, and A when BK = 64),
// f(r) = (r / 2) % 4 for 64-byte rows (A when BK = 32). The 8 row addresses of every 8 x 8 ldmatrix block then fall
// in 8 different 16-byte bank groups (conflict free), and the cp.async writes stay a permutation within each
// 128-byte line (also conflict free).
//
// Edges. K and N are multiples of 8 (the task says so), so every 16-byte chunk of A or B is either wholly inside
// the matrix or wholly outside: an outside chunk is fetched with src-size 0 (cp.async fills the 16 shared bytes with
// zeros), so partial tiles in M, N and K multiply by zero. The epilogue stores each thread's accumulator pairs as
// float2 (8-byte aligned since N and the column are even), skipping rows >= M and pairs past column N - 1.
//
// Grid. A 1-D grid of cdiv(M, BM) * cdiv(N, BN) blocks is rasterized in groups of group_m block rows (a launch
// argument) so that blocks resident at the same time share A rows and B columns in L2.
// kopt: task gemm_bf16_aligned
// kopt: tune BM in [128, 256]
// kopt: tune BN in [256, 128]
// kopt: tune BK in [32, 64]
// kopt: tune WARPS_M in [2, 4]
// kopt: tune WARPS_N in [4, 2]
// kopt: tune STAGES in [4, 3, 5]
// kopt: tune GROUP_M in [8, 16, 1]
// kopt: restrict BM * BN <= 128 * 256 and WARPS_M * WARPS_N <= 8
// kopt: restrict BM // WARPS_M <= 64 and BN // WARPS_N <= 64 and (BM // WARPS_M) * (BN // WARPS_N) >= 2048
// kopt: restrict STAGES * (BM + BN) * BK * 2 <= 160 * 1024
// kopt: launch gemm_bf16_mma_sync grid=(cdiv(M, BM) * cdiv(N, BN)) block=(32 * WARPS_M * WARPS_N) smem=STAGES*(BM+BN)*BK*2 args=(A, B, C, M, N, K, GROUP_M)
#include <cuda_bf16.h>

#define NTHREADS (32 * WARPS_M * WARPS_N)
#define WM (BM / WARPS_M)  // warp tile rows
#define WN (BN / WARPS_N)  // warp tile columns
#define MT (WM / 16)       // 16-row mma tiles per warp
#define NT (WN / 8)        // 8-column mma tiles per warp
#define KSTEPS (BK / 16)   // mma k steps per slice
#define A_CPR (BK / 8)     // 16-byte chunks per row of the A tile
#define B_CPR (BN / 8)     // 16-byte chunks per row of the B tile
#define A_TILE_BYTES (BM * BK * 2)
#define STAGE_BYTES ((BM + BN) * BK * 2)  // one stage: the A tile, then the B tile
#define A_COPIES (BM * BK / 8 / NTHREADS)  // 16-byte copies per thread per stage
#define B_COPIES (BK * BN / 8 / NTHREADS)
#define A_ROWSTEP (NTHREADS / A_CPR)  // tile rows between a thread's successive copies
#define B_ROWSTEP (NTHREADS / B_CPR)

static_assert(WM % 16 == 0 && WN % 16 == 0, "a warp tile is a whole number of 16 x 16 blocks");
static_assert(BK % 32 == 0, "BK is a multiple of 32 (the A swizzle needs rows of at least 64 bytes)");
static_assert(A_COPIES * NTHREADS * 8 == BM * BK && B_COPIES * NTHREADS * 8 == BK * BN, "copies divide evenly");
static_assert(A_ROWSTEP % 8 == 0 && B_ROWSTEP % 8 == 0 && B_ROWSTEP * B_CPR == NTHREADS,
              "a thread's copies are whole multiples of 8 rows apart (same swizzle key)");
static_assert(STAGES >= 2, "at least two stages");

// Byte offset of 16-byte chunk `chunk` of row `row` in a tile with CPR chunks per row, XOR-swizzled. Rows of 128 B
// or more: chunk ^ (row % 8) on the low 3 bits. Narrower rows: 8 / CPR rows share one 128-byte line and the XOR
// key is the line index modulo CPR. Either way the 8 rows of an ldmatrix block land in 8 distinct bank groups.
template <int CPR>
__device__ __forceinline__ unsigned swizzled(int row, int chunk) {
  constexpr int rows_per_line = CPR >= 8 ? 1 : 8 / CPR;
  constexpr int key_mask = (CPR >= 8 ? 8 : CPR) - 1;
  return (unsigned)(row * CPR + (chunk ^ ((row / rows_per_line) & key_mask))) * 16u;
}

__device__ __forceinline__ void cp_async_16(unsigned smem_dst, const void* gmem_src, bool in_bounds) {
  // src-size 0: nothing is read and the 16 shared bytes are zero-filled (the source must still be a valid address).
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(smem_dst), "l"(gmem_src),
               "r"(in_bounds ? 16 : 0)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N_PENDING>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N_PENDING) : "memory");
}

// Four 8 x 8 b16 blocks; lanes 8j .. 8j+7 give the 8 row addresses of block j, register j receives block j
// (lane l holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1).
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
// The same with each block transposed: lane l holds rows 2 (l % 4) and 2 (l % 4) + 1 of column l / 4.
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned& r0, unsigned& r1, unsigned& r2, unsigned& r3,
                                                  unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr));
}

// d += a (16 x 16, row) * b (16 x 8, col), bf16 in, f32 accumulate.
__device__ __forceinline__ void mma_bf16_16x8x16(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

extern "C" __global__ void __launch_bounds__(NTHREADS)
    gemm_bf16_mma_sync(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                       float* __restrict__ C, int M, int N, int K, int group_m) {
  extern __shared__ __align__(128) unsigned char smem[];
  const unsigned smem0 = static_cast<unsigned>(__cvta_generic_to_shared(smem));

  // Grouped rasterization: consecutive blocks walk group_m block rows down one block column, then the next column.
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  // Block-uniform guards (never taken with the annotated launch and a valid shape; they keep the tile mapping
  // below well defined for any grid and arguments).
  if (M <= 0 || N <= 0 || K <= 0 || group_m <= 0 || (int)blockIdx.x >= tiles_m * tiles_n) return;
  const int per_group = group_m * tiles_n;
  const int group = blockIdx.x / per_group;
  const int first_m = group * group_m;
  const int rows_in_group = min(tiles_m - first_m, group_m);
  const int in_group = blockIdx.x % per_group;
  const int m0 = (first_m + in_group % rows_in_group) * BM;
  const int n0 = (in_group / rows_in_group) * BN;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wm = warp / WARPS_N, wn = warp % WARPS_N;

  // ---- global -> shared copies: per thread, A_COPIES chunks of the A tile and B_COPIES chunks of the B tile ----
  // Copy j of thread tid is chunk tid + j * NTHREADS of the tile: row r + j * ROWSTEP, 16-byte chunk c, with r and
  // c fixed per thread. ROWSTEP is a multiple of 8, so the swizzle key of the row, and hence the chunk's position
  // within its row, is the same for every j: copy j sits at a fixed offset from copy 0, in shared and in global
  // memory. The global pointers advance by one slice per call (slices are loaded in order).
  const int a_r = tid / A_CPR, a_c = tid % A_CPR;
  const int b_r = tid / B_CPR, b_c = tid % B_CPR;
  const __nv_bfloat16* a_gmem = A + (size_t)(m0 + a_r) * K + a_c * 8;
  const __nv_bfloat16* b_gmem = B + (size_t)b_r * N + n0 + b_c * 8;
  const unsigned a_sdst = swizzled<A_CPR>(a_r, a_c);
  const unsigned b_sdst = A_TILE_BYTES + swizzled<B_CPR>(b_r, b_c);
  unsigned a_rows_ok = 0;  // bit j: row a_r + j * A_ROWSTEP of the tile is a row of A
#pragma unroll
  for (int j = 0; j < A_COPIES; ++j) a_rows_ok |= (m0 + a_r + j * A_ROWSTEP < M ? 1u : 0u) << j;
  const bool b_col_ok = n0 + b_c * 8 < N;
  int k_load = 0;  // first k of the next slice to load

  // Issue the copies of the next slice into the stage at byte offset `stage` (the caller commits the group).
  auto load_next_slice = [&](unsigned stage) {
    const bool a_k_ok = k_load + a_c * 8 < K;
#pragma unroll
    for (int j = 0; j < A_COPIES; ++j) {
      const bool ok = a_k_ok && ((a_rows_ok >> j) & 1u);
      cp_async_16(smem0 + stage + a_sdst + j * A_ROWSTEP * A_CPR * 16,
                  ok ? (const void*)(a_gmem + (size_t)(j * A_ROWSTEP) * K) : (const void*)A, ok);
    }
#pragma unroll
    for (int j = 0; j < B_COPIES; ++j) {
      const bool ok = b_col_ok && k_load + b_r + j * B_ROWSTEP < K;
      cp_async_16(smem0 + stage + b_sdst + j * B_ROWSTEP * B_CPR * 16,
                  ok ? (const void*)(b_gmem + (size_t)(j * B_ROWSTEP) * N) : (const void*)B, ok);
    }
    a_gmem += BK;
    b_gmem += (size_t)BK * N;
    k_load += BK;
  };

  // ---- shared -> register fragments ----
  // A (row operand): block j of ldmatrix.x4 = rows 8 (j % 2) .. +7, k 8 (j / 2) .. +7 of a 16 x 16 tile, which is
  // exactly the order of the mma's a0..a3 registers; lane l addresses row l % 16, 8-column half l / 16.
  // B (col operand, stored k-major): block j of ldmatrix.x4.trans = k rows 8 (j % 2) .. +7, n columns 8 (j / 2) ..
  // +7; transposed, blocks 0, 1 are b0, b1 of the first 8-wide n tile and blocks 2, 3 those of the second.
  unsigned a_frag_off[KSTEPS];
#pragma unroll
  for (int kk = 0; kk < KSTEPS; ++kk)
    a_frag_off[kk] = swizzled<A_CPR>(wm * WM + (lane & 15), kk * 2 + (lane >> 4));
  unsigned b_frag_off[NT / 2];
#pragma unroll
  for (int np = 0; np < NT / 2; ++np)
    b_frag_off[np] = A_TILE_BYTES + swizzled<B_CPR>(lane & 15, (wn * WN + np * 16) / 8 + (lane >> 4));

  unsigned af[2][MT][4];
  unsigned bfr[2][NT][2];
  auto load_frags = [&](int buf, unsigned stage, int kk) {
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)  // 16 rows further down keeps row % 8 (and the swizzle key): a fixed offset
      ldmatrix_x4(af[buf][mt], smem0 + stage + a_frag_off[kk] + mt * 16 * A_CPR * 16);
#pragma unroll
    for (int np = 0; np < NT / 2; ++np)  // 16 k rows further down: likewise
      ldmatrix_x4_trans(bfr[buf][2 * np][0], bfr[buf][2 * np][1], bfr[buf][2 * np + 1][0], bfr[buf][2 * np + 1][1],
                        smem0 + stage + b_frag_off[np] + kk * 16 * B_CPR * 16);
  };

  float acc[MT][NT][4];
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[mt][nt][e] = 0.0f;

  // ---- prologue: slices 0 .. STAGES - 2 in flight, one group each ----
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (k_load < K) load_next_slice(s * STAGE_BYTES);
    cp_async_commit();
  }
  cp_async_wait<STAGES - 2>();  // slice 0 has landed (this thread's copies) ...
  __syncthreads();              // ... and everyone's

  unsigned read_stage = 0;                             // stage holding slice kt
  unsigned write_stage = (STAGES - 1) * STAGE_BYTES;  // stage that receives slice kt + STAGES - 1
  load_frags(0, read_stage, 0);

  const int slices = (K + BK - 1) / BK;
  for (int kt = 0; kt < slices; ++kt) {
#pragma unroll
    for (int kk = 0; kk < KSTEPS; ++kk) {
      if (kk == KSTEPS - 1) {
        // Before reading the next stage: slice kt + 1 must have landed for every thread. The barrier also tells
        // everyone that all reads of the previous stage (finished before this point) are done, which is what
        // lets the next slice's first k step overwrite it.
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        read_stage = read_stage == (STAGES - 1) * STAGE_BYTES ? 0u : read_stage + STAGE_BYTES;
      }
      // Fragments of the next k step (at the last step: the first step of slice kt + 1; past the last slice they
      // are loaded from a stale stage and never used).
      load_frags((kk + 1) & 1, read_stage, (kk + 1) % KSTEPS);
      if (kk == 0) {
        // Refill the stage that held slice kt - 1: every warp passed the barrier at the end of slice kt - 1,
        // after its last read of that stage.
        if (k_load < K) load_next_slice(write_stage);  // slice kt + STAGES - 1, if there is one
        cp_async_commit();
        write_stage = write_stage == (STAGES - 1) * STAGE_BYTES ? 0u : write_stage + STAGE_BYTES;
      }
      // MT x NT mma, in a serpentine order over n so that consecutive mma share an operand.
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int j = 0; j < NT; ++j) {
          const int nt = (mt & 1) ? NT - 1 - j : j;
          mma_bf16_16x8x16(acc[mt][nt], af[kk & 1][mt], bfr[kk & 1][nt]);
        }
    }
  }
  cp_async_wait<0>();  // only empty groups can be pending here; drain them before the block exits

  // ---- epilogue: accumulator (mma C layout: lane l holds rows l / 4 and l / 4 + 8, columns 2 (l % 4) + {0, 1}
  // of each 16 x 8 tile) straight to global memory as float2, bounds-checked ----
  const int row_base = m0 + wm * WM + (lane >> 2);
  const int col_base = n0 + wn * WN + (lane & 3) * 2;
#pragma unroll
  for (int mt = 0; mt < MT; ++mt) {
    const int r = row_base + mt * 16;
#pragma unroll
    for (int nt = 0; nt < NT; ++nt) {
      const int c = col_base + nt * 8;
      if (c + 1 < N) {  // the whole pair is in range (with N a multiple of 8 this is just c < N)
        if (r < M) *reinterpret_cast<float2*>(C + (size_t)r * N + c) = make_float2(acc[mt][nt][0], acc[mt][nt][1]);
        if (r + 8 < M)
          *reinterpret_cast<float2*>(C + (size_t)(r + 8) * N + c) = make_float2(acc[mt][nt][2], acc[mt][nt][3]);
      }
    }
  }
}
