// Ampere-style tensor-core GEMM written with CuTe (CUTLASS 4.2): C (f32, M x N) = A (bf16, M x K, row-major) @
// B (bf16, K x N, row-major). The same schedule as gemm_bf16_mma_sync.cu (mma.sync m16n8k16, ldmatrix, a multistage
// cp.async pipeline), but every index computation is a CuTe layout: the kernel never computes an address by hand.
// Runs on sm_80 and later.
//
// Operands in CuTe's (M, K) / (N, K) convention. A is (M, K) with strides (K, 1): "K-major". B is stored K x N
// row-major; viewed as the (N, K) operand CuTe's GEMMs take, its strides are (1, N): "N-major" (MN-major). C is
// (M, N) with strides (N, 1). The mma atom SM80_16x8x16_F32BF16BF16F32_TN wants both operands K-major in registers,
// so A is loaded with plain ldmatrix (SM75_U32x4_LDSM_N) and B with the transposing form (SM75_U16x8_LDSM_T): its
// 8 x 8 blocks are stored n-contiguous in shared memory and transposed on the way into registers.
//
// Schedule. A block of (BM / 64) x (BN / 64) warps owns a BM x BN tile of C; the TiledMMA repeats the 16 x 8 x 16
// atom over the tile so that each warp owns 64 x 64 of it (4 x 8 atoms, 128 f32 accumulators per thread). K is
// walked in BK-wide tiles through STAGES shared-memory stages: tile kt is multiplied while tiles kt + 1 ..
// kt + STAGES - 1 are in flight as 16-byte cp.async.cg copies (one commit group per tile, empty past the end, so
// cp.async.wait_group STAGES - 2 always means "the next tile has landed"). Fragments are double-buffered in
// registers: the ldmatrix of k-block j + 1 is issued before the mma of k-block j.
//
// Shared-memory layouts are swizzle atoms tiled over the (rows, k, stage) shape. A: 8 rows x BK, k contiguous,
// 16-byte chunks XOR-ed with the row (Swizzle<3,3,3> for 128-byte rows, BK = 64; Swizzle<2,3,3> for 64-byte rows,
// BK = 32: chunk ^ (row / 2) % 4). B: 64 n x 8 k, n contiguous, chunk ^ k (Swizzle<3,3,3>). Either way the 8 row
// addresses of every ldmatrix 8 x 8 block, and the 8 chunks written by every 8 consecutive cp.async threads, fall in
// 8 distinct 16-byte bank groups. The swizzle keeps 16-byte chunks whole, which is what lets CuTe vectorize both
// copies (it checks this statically: a layout that splits a chunk does not compile).
//
// Edges (K and N multiples of 8, so each 16-byte chunk is wholly inside or outside the matrix). Predicates come
// from identity tensors: the (m, k) / (n, k) coordinates of the tile partitioned exactly like the data. The k
// remainder is handled by a residue-first k tile: the k axis is shifted by K - k_tiles * BK (<= 0) so that the
// first tile is the partial one (its columns at k < 0 are skipped) and every later tile is whole, so the main loop
// only needs the fixed per-thread row (m) and column (n) predicates. In edge blocks shared memory starts zeroed, so
// what is never copied (rows >= M, columns >= N, the skipped k) multiplies as zero. The epilogue writes float2
// pairs from the accumulators, guarded by the identity tensor of C.
//
// Grid. A 1-D grid of cdiv(M, BM) * cdiv(N, BN) blocks, rasterized in groups of group_m block rows (a launch
// argument) so that blocks resident at the same time share A rows and B columns in L2.
// kopt: task gemm_bf16_aligned
// kopt: tune BM in [128, 256]
// kopt: tune BN in [256, 128]
// kopt: tune BK in [32, 64]
// kopt: tune STAGES in [4, 3]
// kopt: tune GROUP_M in [8, 16]
// Four compiled configurations: 8 warps (BM x BN = 128 x 256 or 256 x 128), and 4 stages of BK = 32 (96 KB) or
// 3 stages of BK = 64 (144 KB). CuTe kernels take tens of seconds each to compile under NVRTC.
// kopt: restrict BM * BN == 128 * 256 and STAGES == (4 if BK == 32 else 3)
// kopt: launch gemm_bf16_cute_sm80 grid=(cdiv(M, BM) * cdiv(N, BN)) block=(32 * (BM // 64) * (BN // 64)) smem=STAGES*(BM+BN)*BK*2 args=(A, B, C, M, N, K, GROUP_M)
#include <cuda_bf16.h>

#include <cute/tensor.hpp>

// Everything CuTe needs to know about the schedule is a type: tile shape, shared-memory layouts, the two tiled
// copies and the tiled MMA are defined first; the code below them only partitions tensors and calls copy / gemm.
extern "C" __global__ void __launch_bounds__(BM * BN / 128)
    gemm_bf16_cute_sm80(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                        float* __restrict__ C, int M, int N, int K, int group_m) {
  using namespace cute;

  using Elem = bfloat16_t;
  constexpr int kWarpsM = BM / 64;  // a 64 x 64 warp tile
  constexpr int kWarpsN = BN / 64;
  constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static_assert(kThreads == BM * BN / 128, "__launch_bounds__ above: 32 threads per 64 x 64 warp tile");
  static_assert(BK == 32 || BK == 64, "the A swizzle atom below has 64- and 128-byte row forms");
  static_assert(STAGES >= 2, "at least two stages");

  using TileShape = Shape<Int<BM>, Int<BN>, Int<BK>>;

  // ---- shared memory: (rows, k, stage) -> element offset, swizzled in 16-byte chunks
  // A, K-major: an 8-row x BK atom (k contiguous); Swizzle<B, 3, 3> XORs the B bits above the 64-element (128-byte)
  // line into the chunk index bits [3, 3 + B).
  using SmemAtomA = decltype(composition(Swizzle<(BK == 64 ? 3 : 2), 3, 3>{},
                                         Layout<Shape<_8, Int<BK>>, Stride<Int<BK>, _1>>{}));
  // B, N-major: a 64 (n) x 8 (k) atom, n contiguous, 1 KB; the k index (bits 6..8) is XORed into the n chunk.
  using SmemAtomB = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}));
  using SmemLayoutA = decltype(tile_to_shape(SmemAtomA{}, Shape<Int<BM>, Int<BK>, Int<STAGES>>{}));
  using SmemLayoutB = decltype(tile_to_shape(SmemAtomB{}, Shape<Int<BN>, Int<BK>, Int<STAGES>>{}));
  constexpr int kSmemBytes = int(sizeof(Elem)) * (int(cosize(SmemLayoutA{})) + int(cosize(SmemLayoutB{})));
  static_assert(kSmemBytes == STAGES * (BM + BN) * BK * 2, "the launch's smem= expression must match");

  // ---- global -> shared: 16-byte cp.async.cg (L2 only), one 8-element chunk per thread per copy.
  // Threads are laid out along the contiguous dimension so that a warp reads whole 128-byte lines.
  using G2SAtom = Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, Elem>;
  using G2SCopyA = decltype(make_tiled_copy(
      G2SAtom{}, Layout<Shape<Int<kThreads / (BK / 8)>, Int<BK / 8>>, Stride<Int<BK / 8>, _1>>{},  // (m, k) threads
      Layout<Shape<_1, _8>>{}));                                                                    // 8 k per copy
  using G2SCopyB = decltype(make_tiled_copy(
      G2SAtom{}, Layout<Shape<Int<BN / 8>, Int<kThreads / (BN / 8)>>, Stride<_1, Int<BN / 8>>>{},  // (n, k) threads
      Layout<Shape<_8, _1>>{}));                                                                    // 8 n per copy

  // ---- the MMA: warps tiled (kWarpsM x kWarpsN) over the block tile. The permutation Tile<16 WM, 16 WN, 16> makes
  // one "MMA tile" 16 columns per warp wide (two 8-wide atoms), so one ldmatrix.x4.trans fills the B fragments of two
  // atoms; the TiledMMA then repeats over the rest of BM x BN (4 x 4 times for a 64 x 64 warp tile).
  using TiledMma = decltype(make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN{},
                                           Layout<Shape<Int<kWarpsM>, Int<kWarpsN>, _1>>{},
                                           Tile<Int<16 * kWarpsM>, Int<16 * kWarpsN>, _16>{}));
  static_assert(int(size(TiledMma{})) == kThreads, "one thread per TiledMMA thread");

  // ---- shared -> registers: ldmatrix.x4 for A (K-major rows), ldmatrix.x4.trans for B (n-contiguous rows).
  using S2RAtomA = Copy_Atom<SM75_U32x4_LDSM_N, Elem>;
  using S2RAtomB = Copy_Atom<SM75_U16x8_LDSM_T, Elem>;

  // ---- which tile of C: grouped rasterization, consecutive blocks walk group_m block rows down one block
  // column, then the next column.
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  // Block-uniform guard (never taken with the annotated launch and a valid shape).
  if (M <= 0 || N <= 0 || K <= 0 || group_m <= 0 || int(blockIdx.x) >= tiles_m * tiles_n) return;
  const int per_group = group_m * tiles_n;
  const int first_m = int(blockIdx.x) / per_group * group_m;
  const int rows_in_group = min(tiles_m - first_m, group_m);
  const int in_group = int(blockIdx.x) % per_group;
  const int m_blk = first_m + in_group % rows_in_group;
  const int n_blk = in_group / rows_in_group;

  // ---- global tensors and this block's tiles
  Tensor mA = make_tensor(make_gmem_ptr(reinterpret_cast<const Elem*>(A)), make_shape(M, K), make_stride(K, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(reinterpret_cast<const Elem*>(B)), make_shape(N, K), make_stride(_1{}, N));
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(N, _1{}));
  const auto blk = make_coord(m_blk, n_blk, _);
  Tensor gA = local_tile(mA, TileShape{}, blk, Step<_1, X, _1>{});  // (BM, BK, k_tiles)
  Tensor gB = local_tile(mB, TileShape{}, blk, Step<X, _1, _1>{});  // (BN, BK, k_tiles)
  Tensor gC = local_tile(mC, TileShape{}, blk, Step<_1, _1, X>{});  // (BM, BN)
  const int k_tiles = int(size<2>(gA));
  // Residue first: shift the k axis by K - k_tiles * BK (in (-BK, 0]) so that tile 0 holds the partial slice
  // (its k < 0 part is never read) and tiles 1 .. k_tiles - 1 are whole.
  const int k_residue = K - k_tiles * BK;
  gA = domain_offset(make_coord(0, k_residue, 0), gA);
  gB = domain_offset(make_coord(0, k_residue, 0), gB);

  extern __shared__ __align__(128) unsigned char smem[];
  Elem* smem_a = reinterpret_cast<Elem*>(smem);
  Tensor sA = make_tensor(make_smem_ptr(smem_a), SmemLayoutA{});                             // (BM, BK, STAGES)
  Tensor sB = make_tensor(make_smem_ptr(smem_a + cosize(SmemLayoutA{})), SmemLayoutB{});     // (BN, BK, STAGES)

  // ---- global -> shared partitions, and the same partition of identity tensors for the predicates
  G2SCopyA g2s_a;
  G2SCopyB g2s_b;
  ThrCopy g2s_thr_a = g2s_a.get_slice(threadIdx.x);
  ThrCopy g2s_thr_b = g2s_b.get_slice(threadIdx.x);
  Tensor tAgA = g2s_thr_a.partition_S(gA);  // (CPY, CPY_M, CPY_K, k_tiles)
  Tensor tAsA = g2s_thr_a.partition_D(sA);  // (CPY, CPY_M, CPY_K, STAGES)
  Tensor tBgB = g2s_thr_b.partition_S(gB);  // (CPY, CPY_N, CPY_K, k_tiles)
  Tensor tBsB = g2s_thr_b.partition_D(sB);  // (CPY, CPY_N, CPY_K, STAGES)
  Tensor tAcA = g2s_thr_a.partition_S(make_identity_tensor(Shape<Int<BM>, Int<BK>>{}));  // -> (m, k) in the tile
  Tensor tBcB = g2s_thr_b.partition_S(make_identity_tensor(Shape<Int<BN>, Int<BK>>{}));  // -> (n, k) in the tile

  // Row / column predicates, fixed for the whole k loop: one bool per copy row, broadcast along k (stride 0).
  const int m_left = M - m_blk * BM, n_left = N - n_blk * BN;
  Tensor tApA = make_tensor<bool>(make_shape(size<1>(tAsA), size<2>(tAsA)), make_stride(_1{}, _0{}));
  Tensor tBpB = make_tensor<bool>(make_shape(size<1>(tBsB), size<2>(tBsB)), make_stride(_1{}, _0{}));
  CUTE_UNROLL
  for (int i = 0; i < size<0>(tApA); ++i) tApA(i, 0) = get<0>(tAcA(0, i, 0)) < m_left;
  CUTE_UNROLL
  for (int i = 0; i < size<0>(tBpB); ++i) tBpB(i, 0) = get<0>(tBcB(0, i, 0)) < n_left;

  // ---- prologue. A block on an edge (or with a partial k tile) first zeroes this thread's part of every stage,
  // so that what is never copied reads as 0 (the same thread later copies into the same elements: no barrier
  // needed); interior blocks copy every element of every tile they read. Then tiles 0 .. STAGES - 2 in flight,
  // one commit group each.
  if (k_residue != 0 || m_left < BM || n_left < BN) {
    clear(tAsA);
    clear(tBsB);
  }
  CUTE_UNROLL
  for (int k = 0; k < size<2>(tAsA); ++k)  // tile 0: only the k >= 0 columns of the shifted tile
    if (get<1>(tAcA(0, 0, k)) >= -k_residue) copy_if(g2s_a, tApA(_, k), tAgA(_, _, k, 0), tAsA(_, _, k, 0));
  CUTE_UNROLL
  for (int k = 0; k < size<2>(tBsB); ++k)
    if (get<1>(tBcB(0, 0, k)) >= -k_residue) copy_if(g2s_b, tBpB(_, k), tBgB(_, _, k, 0), tBsB(_, _, k, 0));
  cp_async_fence();
  CUTE_UNROLL
  for (int s = 1; s < STAGES - 1; ++s) {
    if (s < k_tiles) {
      copy_if(g2s_a, tApA, tAgA(_, _, _, s), tAsA(_, _, _, s));
      copy_if(g2s_b, tBpB, tBgB(_, _, _, s), tBsB(_, _, _, s));
    }
    cp_async_fence();
  }

  // ---- MMA partitions: the accumulators, the register fragments, and the ldmatrix views of both
  TiledMma tiled_mma;
  ThrMMA thr_mma = tiled_mma.get_slice(threadIdx.x);
  Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA, MMA_M, MMA_K) bf16 registers
  Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));  // (MMA, MMA_N, MMA_K)
  Tensor acc = partition_fragment_C(tiled_mma, Shape<Int<BM>, Int<BN>>{});  // (MMA, MMA_M, MMA_N) f32
  clear(acc);

  TiledCopy s2r_a = make_tiled_copy_A(S2RAtomA{}, tiled_mma);
  TiledCopy s2r_b = make_tiled_copy_B(S2RAtomB{}, tiled_mma);
  ThrCopy s2r_thr_a = s2r_a.get_slice(threadIdx.x);
  ThrCopy s2r_thr_b = s2r_b.get_slice(threadIdx.x);
  Tensor tXsA = s2r_thr_a.partition_S(sA);  // (CPY, MMA_M, MMA_K, STAGES): this lane's ldmatrix row addresses
  Tensor tXrA = s2r_thr_a.retile_D(tCrA);   // (CPY, MMA_M, MMA_K): the same registers as tCrA, viewed per copy
  Tensor tXsB = s2r_thr_b.partition_S(sB);
  Tensor tXrB = s2r_thr_b.retile_D(tCrB);
  constexpr int kBlocks = decltype(size<2>(tCrA))::value;  // 16-wide k blocks per tile
  static_assert(kBlocks >= 2, "the register double buffer assumes at least two k blocks per tile");

  int read_stage = 0;             // stage holding tile kt
  int write_stage = STAGES - 1;   // stage that receives tile kt + STAGES - 1
  int next_tile = STAGES - 1;

  cp_async_wait<STAGES - 2>();    // tile 0 has landed (this thread's copies) ...
  __syncthreads();                // ... and everyone's
  copy(s2r_a, tXsA(_, _, 0, read_stage), tXrA(_, _, 0));
  copy(s2r_b, tXsB(_, _, 0, read_stage), tXrB(_, _, 0));

  CUTE_NO_UNROLL
  for (int kt = 0; kt < k_tiles; ++kt) {
    for_each(make_int_sequence<kBlocks>{}, [&](auto kb) {  // kb is a compile-time integer
      if (kb == kBlocks - 1) {
        // Tile kt + 1 must have landed for every thread before its first fragments are read. The barrier also
        // tells everyone that all reads of the stage of tile kt - 1 are done, which the refill below relies on.
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        read_stage = read_stage == STAGES - 1 ? 0 : read_stage + 1;
      }
      // Fragments of the next k block (at the last block: block 0 of tile kt + 1; past the end, unused).
      constexpr int kb_next = (decltype(kb)::value + 1) % kBlocks;
      copy(s2r_a, tXsA(_, _, kb_next, read_stage), tXrA(_, _, kb_next));
      copy(s2r_b, tXsB(_, _, kb_next, read_stage), tXrB(_, _, kb_next));
      if (kb == 0) {
        // Refill the stage tile kt - 1 used: tile kt + STAGES - 1, if there is one; the group is committed
        // either way so that the wait_group count above stays exact.
        if (next_tile < k_tiles) {
          copy_if(g2s_a, tApA, tAgA(_, _, _, next_tile), tAsA(_, _, _, write_stage));
          copy_if(g2s_b, tBpB, tBgB(_, _, _, next_tile), tBsB(_, _, _, write_stage));
        }
        cp_async_fence();
        ++next_tile;
        write_stage = write_stage == STAGES - 1 ? 0 : write_stage + 1;
      }
      gemm(tiled_mma, acc, tCrA(_, _, kb), tCrB(_, _, kb), acc);  // MMA_M x MMA_N HMMA
    });
  }
  cp_async_wait<0>();  // only empty groups can be pending: drain them before the block exits

  // ---- epilogue: accumulators straight to global memory. In the m16n8 accumulator layout the first value mode
  // is (column pair, row + 8): values (0, h) and (1, h) are adjacent columns, stored together as a float2
  // (8-byte aligned: the column is even and N is a multiple of 8). The identity tensor of C gives each pair's
  // (m, n) in the tile, checked against what is left of M and N.
  Tensor tCgC = thr_mma.partition_C(gC);                                               // (MMA, MMA_M, MMA_N)
  Tensor tCcC = thr_mma.partition_C(make_identity_tensor(Shape<Int<BM>, Int<BN>>{}));  // -> (m, n) in the tile
  CUTE_UNROLL
  for (int mi = 0; mi < size<1>(acc); ++mi) {
    CUTE_UNROLL
    for (int ni = 0; ni < size<2>(acc); ++ni) {
      CUTE_UNROLL
      for (int h = 0; h < 2; ++h) {
        const auto mn = tCcC(make_coord(0, h), mi, ni);
        if (get<0>(mn) < m_left && get<1>(mn) < n_left)
          *reinterpret_cast<float2*>(&tCgC(make_coord(0, h), mi, ni)) =
              make_float2(acc(make_coord(0, h), mi, ni), acc(make_coord(1, h), mi, ni));
      }
    }
  }
}
