// Hopper (sm_90a) bf16 GEMM, C(f32) = A(bf16, M x K, row-major) @ B(bf16, K x N, row-major), written with raw PTX:
// TMA tile loads into 128B-swizzled shared memory, a STAGES-deep mbarrier full/empty ring, wgmma.mma_async issued
// straight from shared memory, producer/consumer warp specialization with setmaxnreg, a persistent tile loop and an
// epilogue that goes registers -> swizzled shared memory -> TMA store.
//
// Block = 3 warpgroups (384 threads), one block per SM (384 x 168 registers fill the SM's 64K):
//   warpgroup 0  producer: gives registers back (setmaxnreg.dec) and one thread issues every TMA load;
//   warpgroups 1, 2  consumers: take the registers (setmaxnreg.inc); each owns 64 rows of the 128 x BN tile of C
//                    (an m64nBNk16 f32 accumulator of BN / 2 registers per thread) and runs wgmma on it.
// One pipeline stage holds A[128 x 64] and B[64 x BN]. 64 bf16 = 128 bytes, the widest box a 128B-swizzled tensor
// map allows, so BK = 64 and the B tile (N is its contiguous dimension) arrives as BN / 64 boxes of 64 x 64.
// Edges need no code in the main loop: TMA zero-fills the out-of-bounds part of a box (rows past M, columns past N,
// k past K), and the TMA store of C clips. That is why K and N only need to be multiples of 8 (16-byte row
// strides, a tensor-map requirement), not of any tile.
//
// wgmma and setmaxnreg exist only on sm_90a: compile and run with `--arch sm_90a` (kopt compile/explain/run/bench).
// The `arch sm_90a` line below makes kopt compile it for sm_90a; forced to plain sm_90 (--arch sm_90) the kernel is a
// stub that traps, so a wrong target fails loudly.
//
// kopt: task gemm_bf16_aligned
// kopt: arch sm_90a
// kopt: tune BN in [256, 128]
// kopt: tune STAGES in [4, 3, 5, 6]
// kopt: tune GROUP_M in [8, 16]
// BLOCKS: the persistent grid. There is no SM-count symbol: 132 is the H200's (and H100 SXM's) SM count; 114 is an
// H100 PCIe. The launch never asks for more blocks than there are tiles.
// kopt: tune BLOCKS in [132, 114]
// Shared memory, as SMEM_BYTES below: 1 KB alignment slack + STAGES x (A 16 KB + B 128 * BN bytes) + 4 epilogue
// buffers of 8 KB + 256 bytes of barriers. An H200 block may have up to 227 KB.
// kopt: restrict 1024 + STAGES * (16384 + 128 * BN) + 32768 + 256 <= 227 * 1024
// kopt: tensormap tA = A box=(128, 64) swizzle=128B l2promotion=256B
// kopt: tensormap tB = B box=(64, 64) swizzle=128B l2promotion=256B
// kopt: tensormap tC = C box=(64, 32) swizzle=128B
// kopt: launch gemm_bf16_wgmma_tma grid=(min(BLOCKS, cdiv(M, 128) * cdiv(N, BN))) block=(384) smem=(1024 + STAGES * (16384 + 128 * BN) + 32768 + 256) args=(tA, tB, tC, M, N, K)

// NVRTC cannot include <cuda.h>; this matches the driver's opaque 128-byte, 64-byte aligned CUtensorMap.
struct alignas(64) CUtensorMap {
  unsigned long long opaque[16];
};

typedef unsigned long long u64;

#define BM 128                   // rows of C per tile: 2 consumer warpgroups x 64 (wgmma's M)
#define BK 64                    // k per stage: 64 bf16 = one 128-byte swizzle row
#define NUM_CONSUMERS 2          // consumer warpgroups
#define EPI_N 32                 // columns per epilogue chunk: 32 f32 = one 128-byte swizzle row
#define PRODUCER_REGS 40         // setmaxnreg targets: 128 x 40 + 256 x 232 = 64512 <= 65536 registers per SM
#define CONSUMER_REGS 232

// Shared-memory layout (byte offsets from a 1024-aligned base; 128B-swizzled tiles must start on 1024 bytes).
#define A_STAGE_BYTES (BM * BK * 2)                    // 16 KB: 128 rows x 128 B
#define B_BOX_BYTES (BK * 64 * 2)                      // 8 KB: one 64 (k) x 64 (n) box, 64 rows x 128 B
#define B_STAGE_BYTES (BN / 64 * B_BOX_BYTES)          // BN / 64 boxes side by side
#define STAGE_BYTES (A_STAGE_BYTES + B_STAGE_BYTES)
#define EPI_BUF_BYTES (64 * EPI_N * 4)                 // 8 KB: 64 rows x 128 B of f32
#define EPI_OFFSET (STAGES * STAGE_BYTES)              // then 2 buffers per consumer warpgroup (double buffering)
#define BAR_OFFSET (EPI_OFFSET + NUM_CONSUMERS * 2 * EPI_BUF_BYTES)
#define SMEM_BYTES (1024 + BAR_OFFSET + 256)           // what the launch's smem= expression asks for
static_assert(2 * STAGES * 8 <= 256, "the barriers must fit their 256 bytes");
static_assert(BN == 128 || BN == 256, "the wgmma wrapper below has n128 and n256 forms");

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)  // defined when compiling for sm_90a (wgmma, setmaxnreg)
#define SM90A_ENABLED 1
#else
#define SM90A_ENABLED 0
#endif

// The accumulator operand lists: "+f" because wgmma reads and writes D (scale-d selects D = A*B or D += A*B).
#define ACC4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define ACC16(i) ACC4(i), ACC4(i + 4), ACC4(i + 8), ACC4(i + 12)
#define ACC64(i) ACC16(i), ACC16(i + 16), ACC16(i + 32), ACC16(i + 48)
#define REGS_0_63                                                                          \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                 \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "       \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "       \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define REGS_64_127                                                                               \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "              \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "              \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "  \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"

// D[64 x BN] (+)= A[64 x 16] * B[16 x BN], bf16 inputs, f32 accumulate, issued by a whole warpgroup. The trailing
// immediates are scale-a = 1, scale-b = 1, trans-a = 0 (A is K-major), trans-b = 1 (B is N-major: row-major K x N
// in memory; allowed for 16-bit types only). d must stay in registers: every loop that indexes it is unrolled.
// The "memory" clobber keeps the compiler from moving it across the mbarrier wait that guards the stage.
__device__ __forceinline__ void wgmma_bf16(float (&d)[BN / 2], u64 da, u64 db, int accumulate) {
#if SM90A_ENABLED && BN == 256
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
      "{" REGS_0_63 ", " REGS_64_127 "}, %128, %129, p, 1, 1, 0, 1;\n"
      "}\n"
      : ACC64(0), ACC64(64)
      : "l"(da), "l"(db), "r"(accumulate)
      : "memory");
#elif SM90A_ENABLED && BN == 128
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{" REGS_0_63 "}, %64, %65, p, 1, 1, 0, 1;\n"
      "}\n"
      : ACC64(0)
      : "l"(da), "l"(db), "r"(accumulate)
      : "memory");
#endif
}

extern "C" __global__ void __launch_bounds__(384, 1)
    gemm_bf16_wgmma_tma(const __grid_constant__ CUtensorMap tA, const __grid_constant__ CUtensorMap tB,
                        const __grid_constant__ CUtensorMap tC, int M, int N, int K) {
#if !SM90A_ENABLED
  // Built for plain sm_90 (or older): wgmma and setmaxnreg are not available. Compile with --arch sm_90a.
  __trap();
#else
  // ---- PTX helpers, as lambdas local to the kernel. Shared-memory operands are 32-bit addresses in the shared
  // window (__cvta_generic_to_shared).

  // mbarrier: a 64-bit shared object. A phase completes when `count` arrivals have happened and the expected
  // transaction bytes have landed; then its parity flips (0, 1, 0, ...). try_wait.parity waits for the phase with
  // that parity to complete. On a fresh barrier (in phase 0) parity 1 counts as complete, which lets the producer's
  // first pass over the ring through before any consumer has released a stage.
  auto mbar_wait = [](unsigned bar, unsigned parity) {
    unsigned done = 0;
    while (!done) {
      asm volatile(
          "{\n"
          "  .reg .pred p;\n"
          "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
          "  selp.u32 %0, 1, 0, p;\n"
          "}\n"
          : "=r"(done)
          : "r"(bar), "r"(parity)
          : "memory");
    }
  };
  auto mbar_arrive = [](unsigned bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
  };
  // TMA load of one box. Coordinates are element indices, innermost first: {column, row}; they may point past the
  // tensor. Out-of-bounds elements are zero-filled and still count toward the barrier's transaction bytes.
  auto tma_load = [](unsigned dst, const CUtensorMap* map, int col, int row, unsigned bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
        ::"r"(dst), "l"(reinterpret_cast<u64>(map)), "r"(col), "r"(row), "r"(bar)
        : "memory");
  };
  // Shared-memory matrix descriptor of a wgmma operand: bits 0-13 start address >> 4, 16-29 leading-dimension byte
  // offset (LBO) >> 4, 32-45 stride-dimension byte offset (SBO) >> 4, 49-51 base offset (0: every tile starts on
  // a 1024-byte boundary), 62-63 swizzle mode (1 = 128B, the mode the tensor maps wrote).
  auto make_desc = [](unsigned addr, unsigned lbo, unsigned sbo) -> u64 {
    return (u64)((addr & 0x3FFFF) >> 4) | ((u64)(lbo >> 4) << 16) | ((u64)(sbo >> 4) << 32) | (1ull << 62);
  };
  // Persistent tile order: tiles are numbered in groups of GROUP_M block-rows, walking down the rows of a group
  // before moving one block-column right, so blocks working at the same time share A rows and B columns in L2.
  auto tile_coords = [](int tile, int tiles_m, int tiles_n, int& m_blk, int& n_blk) {
    const int per_group = GROUP_M * tiles_n;
    const int first_m = (tile / per_group) * GROUP_M;
    const int rows = min(tiles_m - first_m, GROUP_M);  // the last group may be shorter
    const int in_group = tile % per_group;
    m_blk = first_m + in_group % rows;
    n_blk = in_group / rows;
  };

  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // The dynamic shared window is not guaranteed to start on 1024 bytes; align by hand (the launch asks 1 KB extra).
  const unsigned raw = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw));
  const unsigned base = (raw + 1023u) & ~1023u;
  const unsigned full_bar = base + BAR_OFFSET;         // STAGES barriers: "stage s has landed"
  const unsigned empty_bar = full_bar + STAGES * 8;    // STAGES barriers: "stage s may be refilled"

  const int wg = threadIdx.x / 128;                    // 0 = producer, 1..2 = consumers
  const int warp_in_wg = (threadIdx.x / 32) % 4;
  const int lane = threadIdx.x % 32;

  const int tiles_m = (M + BM - 1) / BM;
  const int tiles_n = (N + BN - 1) / BN;
  const int tiles = tiles_m * tiles_n;
  const int k_blocks = (K + BK - 1) / BK;              // K >= 8, so at least one

  if (threadIdx.x == 0) {
    unsigned dyn_smem;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn_smem));
    if (dyn_smem < SMEM_BYTES) __trap();               // the launch's smem= does not match this layout
    for (int s = 0; s < STAGES; ++s) {
      // full: one arrival (the producer's arrive.expect_tx) plus the TMA bytes. empty: lane 0 of each of the 8
      // consumer warps, each after its own wgmma.wait_group, so no operand read of the stage can still be pending.
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(full_bar + 8 * s), "r"(1) : "memory");
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(empty_bar + 8 * s), "r"(NUM_CONSUMERS * 4)
                   : "memory");
    }
    // Make the initialized barriers visible to the async proxy (TMA's complete_tx) before anyone uses them.
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();  // the last block-wide barrier: from here on the warpgroups run independently

  // Pipeline iteration `it` (counted across tiles, in the same order by producer and consumers) uses stage
  // s = it % STAGES, and waits with parity (it / STAGES) & 1, the number of times the ring has wrapped, mod 2.
  if (wg == 0) {
    // ---------------------------------------------------------------- producer warpgroup (warp specialization)
    // Give registers back: the whole warpgroup executes it (.sync.aligned); issuing TMA needs few registers.
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(PRODUCER_REGS));
    const bool producer_warp = warp_in_wg == 0;
    if (producer_warp && lane == 0) {                  // one thread issues every copy
      asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<u64>(&tA)) : "memory");
      asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<u64>(&tB)) : "memory");
      int s = 0;
      unsigned phase = 0;
      for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int m_blk, n_blk;
        tile_coords(tile, tiles_m, tiles_n, m_blk, n_blk);
        const int m0 = m_blk * BM, n0 = n_blk * BN;
        // B boxes that start at or past column N would only bring zeros; skip them. The stale shared memory they
        // leave behind only feeds columns >= N of C, which the TMA store clips (column n of C depends only on
        // column n of B).
        const int b_boxes = min(BN / 64, (N - n0 + 63) / 64);
        const unsigned tx_bytes = A_STAGE_BYTES + b_boxes * B_BOX_BYTES;  // whole boxes, zero-filled parts too
        for (int kb = 0; kb < k_blocks; ++kb) {
          mbar_wait(empty_bar + 8 * s, phase ^ 1);     // both consumers are done reading this stage
          const unsigned fb = full_bar + 8 * s;
          asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(fb), "r"(tx_bytes)
                       : "memory");
          const unsigned sa = base + s * STAGE_BYTES;
          const unsigned sb = sa + A_STAGE_BYTES;
          tma_load(sa, &tA, kb * BK, m0, fb);          // A[m0 : m0+128, k0 : k0+64]
          for (int c = 0; c < b_boxes; ++c)            // B[k0 : k0+64, n0+64c : n0+64c+64]
            tma_load(sb + c * B_BOX_BYTES, &tB, n0 + 64 * c, kb * BK, fb);
          if (++s == STAGES) {
            s = 0;
            phase ^= 1;
          }
        }
      }
    }
    // The other producer threads have nothing to do. No block-wide barrier follows, so they may simply finish.
  } else {
    // ---------------------------------------------------------------- consumer warpgroups
    // Take the registers the producer gave back: room for BN / 2 accumulators plus addressing.
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(CONSUMER_REGS));
    const int cw = wg - 1;                             // which 64-row half of the tile this warpgroup owns
    const unsigned epi_buf0 = base + EPI_OFFSET + cw * 2 * EPI_BUF_BYTES;
    const bool epi_leader = (threadIdx.x % 128) == 0;  // issues this warpgroup's TMA stores
    unsigned epi_count = 0;                            // epilogue chunks stored so far: picks the buffer
    float d[BN / 2];

    int s = 0;
    unsigned phase = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      int m_blk, n_blk;
      tile_coords(tile, tiles_m, tiles_n, m_blk, n_blk);
      const int m0 = m_blk * BM + cw * 64, n0 = n_blk * BN;

      // ---- main loop: one wgmma batch (BK / 16 = 4 k-steps) per stage, one batch kept in flight.
      int prev_s = 0;
      for (int kb = 0; kb < k_blocks; ++kb) {
        mbar_wait(full_bar + 8 * s, phase);            // TMA has landed A and B of this stage
        const unsigned sa = base + s * STAGE_BYTES + cw * (64 * 128);  // this warpgroup's 64 rows of A
        const unsigned sb = base + s * STAGE_BYTES + A_STAGE_BYTES;
        // wgmma.fence: earlier register accesses to the accumulators (the last tile's epilogue) come first.
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int kk = 0; kk < BK / 16; ++kk) {
          // A is K-major: 128-byte rows, 8-row groups SBO = 1024 bytes apart; LBO is unused for a swizzled K-major
          // operand (16 by convention). A k16 step moves the start 32 bytes along the row: the hardware applies
          // the swizzle XOR to the final address bits, exactly as TMA did when it wrote the tile.
          const u64 da = make_desc(sa + kk * 32, 16, 1024);
          // B is N-major: each 64 (k) x 64 (n) box is 64 rows (k) of 128 bytes (64 n). 8-row (k) groups are
          // SBO = 1024 bytes apart and the next 64 columns (n) are the next box, LBO = 8 KB away. A k16 step moves
          // the start 16 rows = 2048 bytes.
          const u64 db = make_desc(sb + kk * 16 * 128, B_BOX_BYTES, 1024);
          // The first k-step of a tile computes D = A*B (scale-d = 0), which also clears the previous tile.
          wgmma_bf16(d, da, db, (kb | kk) != 0);
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        // Wait for the previous batch (not this one), so the tensor cores always have work queued; the stage that
        // batch read can now be refilled.
        asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
        if (kb > 0 && lane == 0) mbar_arrive(empty_bar + 8 * prev_s);
        prev_s = s;
        if (++s == STAGES) {
          s = 0;
          phase ^= 1;
        }
      }
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");  // the accumulators are final
      if (lane == 0) mbar_arrive(empty_bar + 8 * prev_s);

      // ---- epilogue: registers -> 128B-swizzled shared memory -> TMA store, EPI_N columns at a time.
      // Accumulator layout of m64nNk16 (f32): warp w of the warpgroup owns rows 16w .. 16w+15; for every 8-column
      // group j, lane l holds d[4j + 0..1] at row 16w + l/4, columns 8j + 2(l%4) + 0..1, and d[4j + 2..3] at
      // row 16w + l/4 + 8, same columns.
      if (m0 < M) {                                    // uniform per warpgroup: rows past M are never stored
        const int r_lo = 16 * warp_in_wg + lane / 4;   // rows r_lo and r_lo + 8 of this warpgroup's 64
        const int r_hi = r_lo + 8;
#pragma unroll
        for (int c = 0; c < BN / EPI_N; ++c) {
          if (n0 + c * EPI_N >= N) break;              // uniform: the rest of the tile is past column N
          const unsigned buf = epi_buf0 + (epi_count & 1) * EPI_BUF_BYTES;
          // The store issued two chunks ago read this buffer: it must have finished reading before we overwrite
          // it (at most one store group, the other buffer's, may still be reading).
          if (epi_leader) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
          asm volatile("bar.sync %0, 128;" ::"r"(1 + cw) : "memory");  // named barrier of this warpgroup only
#pragma unroll
          for (int jj = 0; jj < EPI_N / 8; ++jj) {
            const int j = c * (EPI_N / 8) + jj;        // 8-column group within the tile
            // Column 8jj + 2(l%4) of the chunk lies in 16-byte unit q = 2jj + (l%4)/2, at byte 8 * (l%2) of it.
            // 128B swizzle: unit q of row r is stored at unit q ^ (r % 8) (what the tensor map's swizzle expects).
            const int q = 2 * jj + (lane % 4) / 2;
            const unsigned lo = buf + r_lo * 128 + ((q ^ (r_lo % 8)) << 4) + (lane % 2) * 8;
            const unsigned hi = buf + r_hi * 128 + ((q ^ (r_hi % 8)) << 4) + (lane % 2) * 8;
            asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(lo), "f"(d[4 * j + 0]), "f"(d[4 * j + 1])
                         : "memory");
            asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(hi), "f"(d[4 * j + 2]), "f"(d[4 * j + 3])
                         : "memory");
          }
          // Each writer makes its generic-proxy stores visible to the async proxy (the TMA store), then the
          // warpgroup meets so that all 128 writers are done before the store is issued.
          asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
          asm volatile("bar.sync %0, 128;" ::"r"(1 + cw) : "memory");
          if (epi_leader) {
            // Writes only the in-bounds part of the 64 x 32 box: rows >= M and columns >= N are clipped.
            asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(reinterpret_cast<u64>(&tC)), "r"(n0 + c * EPI_N), "r"(m0), "r"(buf)
                         : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
          }
          ++epi_count;
        }
      }
    }
    // Shared memory must outlive the stores that read it.
    if (epi_leader) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
#endif
}
