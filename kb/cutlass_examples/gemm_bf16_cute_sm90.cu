// Hopper (sm_90a) bf16 GEMM written with CuTe (CUTLASS 4.2): C (f32, M x N) = A (bf16, M x K, row-major) @
// B (bf16, K x N, row-major), with warpgroup MMA (wgmma.mma_async, HGMMA) reading both operands straight from
// swizzled shared memory. The point is how CuTe expresses the GMMA schedule; the load side is deliberately the
// simple one of the sm_80 CuTe example (every thread issues 16-byte cp.async copies through a TiledCopy), where
// gemm_bf16_wgmma_tma.cu uses bulk tensor copies, transaction barriers and a producer warpgroup.
//
// Operands in CuTe's convention: A is (M, K) with strides (K, 1), K-major; B, stored K x N row-major, is the
// (N, K) operand with strides (1, N), MN-major. The MMA atom is SM90_64xBNx16_F32BF16BF16_SS<Major::K, Major::MN>
// ("SS": both operands from shared memory; MN-major B is the transposed-B form wgmma allows for 16-bit types).
// Shared memory uses CuTe's canonical GMMA layouts, 128-byte swizzled: GMMA::Layout_K_SW128_Atom (8 rows x 64 k)
// for A and GMMA::Layout_MN_SW128_Atom (64 n x 8 k) for B, tiled over (rows, 64, STAGES). make_fragment_A/B turn
// them into wgmma matrix descriptors (start address, LBO, SBO, swizzle mode) and CuTe checks at compile time that
// each layout is canonical for the major-ness declared in the atom: a mismatch does not compile.
//
// Schedule. 256 threads = 2 warpgroups; the TiledMMA stacks two 64 x BN x 16 atoms along M, so the block owns a
// 128 x BN tile and each warpgroup 64 x BN of it (BN / 2 f32 accumulators per thread). Per 64-wide k tile: each
// thread waits for its own copies of the tile (cp.async.wait_group), makes them visible to the async proxy that
// wgmma reads through (fence.proxy.async), and the block meets at one barrier. Then the copies of tile
// kt + STAGES - 2 are issued into the stage whose wgmma batch is known complete, and the warpgroup issues its four
// k16 wgmmas (warpgroup_arrive = wgmma.fence, cute::gemm, warpgroup_commit_batch) and waits with
// warpgroup_wait<1>: the batch just issued keeps running while the next tile is waited for, and the batch before it
// is complete, so its stage can be refilled after the next barrier. STAGES - 2 tiles are in flight behind the one
// being multiplied.
//
// Edges: as in the sm_80 example (K and N multiples of 8): identity-tensor predicates for rows and columns, a
// residue-first k tile, shared memory zeroed first in edge blocks, and a bounds-checked float2 epilogue straight
// from the accumulators (the wgmma accumulator layout pairs adjacent columns, as the Ampere m16n8 layout does).
//
// wgmma exists only on sm_90a: the `arch sm_90a` line below makes kopt compile it for sm_90a; built for any other
// target the kernel is a stub that traps.
// kopt: task gemm_bf16_aligned
// kopt: arch sm_90a
// kopt: tune BN in [256, 128]
// kopt: tune STAGES in [4, 6]
// kopt: tune GROUP_M in [8, 16]
// Shared memory: 1 KB alignment slack + STAGES x (A 128 x 64 + B BN x 64) bf16; an H200 block may have 227 KB.
// kopt: restrict 1024 + STAGES * (128 + BN) * 64 * 2 <= 227 * 1024
// kopt: launch gemm_bf16_cute_sm90 grid=(cdiv(M, 128) * cdiv(N, BN)) block=(256) smem=(1024 + STAGES * (128 + BN) * 64 * 2) args=(A, B, C, M, N, K, GROUP_M)
#include <cuda_bf16.h>

#include <cute/tensor.hpp>

// As in the sm_80 CuTe example, the schedule is a set of types (tile, GMMA smem layouts, tiled copies, tiled MMA);
// the code after them partitions tensors and calls copy / gemm.
extern "C" __global__ void __launch_bounds__(256, 1)
    gemm_bf16_cute_sm90(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                        float* __restrict__ C, int M, int N, int K, int group_m) {
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __trap();  // built for a target without wgmma: compile with --arch sm_90a
#else
  using namespace cute;

  using Elem = bfloat16_t;
  constexpr int BM = 128;  // two warpgroups x wgmma's M of 64
  constexpr int BK = 64;   // 64 bf16 = one 128-byte swizzle row of the K-major A atom
  constexpr int kThreads = 256;
  static_assert(STAGES >= 3, "one stage being multiplied, one draining, at least one loading");

  using TileShape = Shape<Int<BM>, Int<BN>, Int<BK>>;

  // ---- shared memory: canonical GMMA layouts, 128B swizzle (16-byte chunk ^= 128-byte row % 8, on the address
  // bits, which is why each stage must start on a 1024-byte boundary)
  using SmemLayoutA =
      decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Elem>{}, Shape<Int<BM>, Int<BK>, Int<STAGES>>{}));
  using SmemLayoutB =
      decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<Elem>{}, Shape<Int<BN>, Int<BK>, Int<STAGES>>{}));
  constexpr int kSmemBytes = int(sizeof(Elem)) * (int(cosize(SmemLayoutA{})) + int(cosize(SmemLayoutB{})));
  static_assert(kSmemBytes == STAGES * (BM + BN) * BK * 2, "the launch's smem= expression must match");
  static_assert(BM * BK * 2 % 1024 == 0, "the B tiles (after A's stages) start 1024-byte aligned too");

  // ---- global -> shared: 16-byte cp.async.cg, threads along the contiguous dimension (k for A, n for B)
  using G2SAtom = Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, Elem>;
  using G2SCopyA = decltype(make_tiled_copy(
      G2SAtom{}, Layout<Shape<Int<kThreads / (BK / 8)>, Int<BK / 8>>, Stride<Int<BK / 8>, _1>>{},  // (m, k) threads
      Layout<Shape<_1, _8>>{}));
  using G2SCopyB = decltype(make_tiled_copy(
      G2SAtom{}, Layout<Shape<Int<BN / 8>, Int<kThreads / (BN / 8)>>, Stride<_1, Int<BN / 8>>>{},  // (n, k) threads
      Layout<Shape<_8, _1>>{}));

  // ---- the MMA: one 64 x BN x 16 GMMA atom per warpgroup (ss_op_selector picks the widest N that divides BN),
  // two warpgroups along M
  using GmmaAtom = decltype(SM90::GMMA::ss_op_selector<Elem, Elem, float, Shape<_64, Int<BN>, Int<BK>>,
                                                       GMMA::Major::K, GMMA::Major::MN>());
  using TiledMma = decltype(make_tiled_mma(GmmaAtom{}, Layout<Shape<_2, _1, _1>>{}));
  static_assert(int(size(TiledMma{})) == kThreads, "two warpgroups");

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

  // ---- global tensors and this block's tiles (k axis shifted for the residue-first k tile)
  Tensor mA = make_tensor(make_gmem_ptr(reinterpret_cast<const Elem*>(A)), make_shape(M, K), make_stride(K, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(reinterpret_cast<const Elem*>(B)), make_shape(N, K), make_stride(_1{}, N));
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(N, _1{}));
  const auto blk = make_coord(m_blk, n_blk, _);
  Tensor gA = local_tile(mA, TileShape{}, blk, Step<_1, X, _1>{});  // (BM, BK, k_tiles)
  Tensor gB = local_tile(mB, TileShape{}, blk, Step<X, _1, _1>{});  // (BN, BK, k_tiles)
  Tensor gC = local_tile(mC, TileShape{}, blk, Step<_1, _1, X>{});  // (BM, BN)
  const int k_tiles = int(size<2>(gA));
  const int k_residue = K - k_tiles * BK;  // in (-BK, 0]: tile 0 is the partial one
  gA = domain_offset(make_coord(0, k_residue, 0), gA);
  gB = domain_offset(make_coord(0, k_residue, 0), gB);

  // The dynamic shared window is not guaranteed to start on 1024 bytes: align by hand (the launch asks 1 KB extra).
  extern __shared__ __align__(128) unsigned char smem_raw[];
  const unsigned raw = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw));
  Elem* smem_a = reinterpret_cast<Elem*>(smem_raw + (((raw + 1023u) & ~1023u) - raw));
  Tensor sA = make_tensor(make_smem_ptr(smem_a), SmemLayoutA{});                          // (BM, BK, STAGES)
  Tensor sB = make_tensor(make_smem_ptr(smem_a + cosize(SmemLayoutA{})), SmemLayoutB{});  // (BN, BK, STAGES)

  // ---- global -> shared partitions. The GMMA layouts swizzle the pointer; the copies partition a
  // position-independent view of the same bytes, on which CuTe can prove the 16-byte chunks contiguous.
  G2SCopyA g2s_a;
  G2SCopyB g2s_b;
  ThrCopy g2s_thr_a = g2s_a.get_slice(threadIdx.x);
  ThrCopy g2s_thr_b = g2s_b.get_slice(threadIdx.x);
  Tensor tAgA = g2s_thr_a.partition_S(gA);                                       // (CPY, CPY_M, CPY_K, k_tiles)
  Tensor tAsA = g2s_thr_a.partition_D(sA);               // (CPY, CPY_M, CPY_K, STAGES)
  Tensor tBgB = g2s_thr_b.partition_S(gB);
  Tensor tBsB = g2s_thr_b.partition_D(sB);
  Tensor tAcA = g2s_thr_a.partition_S(make_identity_tensor(Shape<Int<BM>, Int<BK>>{}));  // -> (m, k) in the tile
  Tensor tBcB = g2s_thr_b.partition_S(make_identity_tensor(Shape<Int<BN>, Int<BK>>{}));  // -> (n, k) in the tile

  const int m_left = M - m_blk * BM, n_left = N - n_blk * BN;
  Tensor tApA = make_tensor<bool>(make_shape(size<1>(tAsA), size<2>(tAsA)), make_stride(_1{}, _0{}));
  Tensor tBpB = make_tensor<bool>(make_shape(size<1>(tBsB), size<2>(tBsB)), make_stride(_1{}, _0{}));
  CUTE_UNROLL
  for (int i = 0; i < size<0>(tApA); ++i) tApA(i, 0) = get<0>(tAcA(0, i, 0)) < m_left;
  CUTE_UNROLL
  for (int i = 0; i < size<0>(tBpB); ++i) tBpB(i, 0) = get<0>(tBcB(0, i, 0)) < n_left;

  // ---- prologue. A block on an edge (or with a partial k tile) first zeroes every stage, so that what is never
  // copied reads as 0: a flat 16-byte view of the same bytes, then a barrier (another thread's copies may land
  // where this thread wrote zeros). Interior blocks copy every element of every tile they read. Then tiles
  // 0 .. STAGES - 3 in flight, one commit group each.
  if (k_residue != 0 || m_left < BM || n_left < BN) {
    Tensor s_flat = make_tensor(make_smem_ptr(reinterpret_cast<uint128_t*>(smem_a)), Int<kSmemBytes / 16>{});
    clear(local_partition(s_flat, Layout<Int<kThreads>>{}, threadIdx.x));
  }
  __syncthreads();
  CUTE_UNROLL
  for (int k = 0; k < size<2>(tAsA); ++k)  // tile 0: only the k >= 0 columns of the shifted tile
    if (get<1>(tAcA(0, 0, k)) >= -k_residue) copy_if(g2s_a, tApA(_, k), tAgA(_, _, k, 0), tAsA(_, _, k, 0));
  CUTE_UNROLL
  for (int k = 0; k < size<2>(tBsB); ++k)
    if (get<1>(tBcB(0, 0, k)) >= -k_residue) copy_if(g2s_b, tBpB(_, k), tBgB(_, _, k, 0), tBsB(_, _, k, 0));
  cp_async_fence();
  CUTE_UNROLL
  for (int s = 1; s < STAGES - 2; ++s) {
    if (s < k_tiles) {
      copy_if(g2s_a, tApA, tAgA(_, _, _, s), tAsA(_, _, _, s));
      copy_if(g2s_b, tBpB, tBgB(_, _, _, s), tBsB(_, _, _, s));
    }
    cp_async_fence();
  }

  // ---- GMMA partitions: descriptors instead of register fragments for A and B
  TiledMma tiled_mma;
  ThrMMA thr_mma = tiled_mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);          // (MMA, MMA_M, MMA_K, STAGES): this warpgroup's 64 rows
  Tensor tCsB = thr_mma.partition_B(sB);          // (MMA, MMA_N, MMA_K, STAGES)
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);    // the same shape, of 64-bit smem matrix descriptors
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);
  Tensor acc = partition_fragment_C(tiled_mma, Shape<Int<BM>, Int<BN>>{});  // (MMA, MMA_M, MMA_N) f32 registers
  clear(acc);  // every wgmma accumulates (scale-d = 1): start from zero

  int write_stage = STAGES - 2;  // receives tile kt + STAGES - 2
  int next_tile = STAGES - 2;

  CUTE_NO_UNROLL
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int read_stage = kt % STAGES;
    cp_async_wait<STAGES - 3>();   // this thread's copies of tile kt have landed;
    // ... made visible (with the zeroing) to the async proxy that wgmma reads shared memory through ...
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();               // everyone's; and every warpgroup has finished batch kt - 2 (waited below)

    // Refill the stage batch kt - 2 read with tile kt + STAGES - 2 (one commit group per iteration, empty past
    // the end, so the wait above stays exact).
    if (next_tile < k_tiles) {
      copy_if(g2s_a, tApA, tAgA(_, _, _, next_tile), tAsA(_, _, _, write_stage));
      copy_if(g2s_b, tBpB, tBgB(_, _, _, next_tile), tBsB(_, _, _, write_stage));
    }
    cp_async_fence();
    ++next_tile;
    write_stage = write_stage == STAGES - 1 ? 0 : write_stage + 1;

    // One batch of BK / 16 wgmmas on tile kt: wgmma.fence orders the earlier register accesses to the
    // accumulators (the clear, the previous batches) before the asynchronous MMAs that read and write them.
    warpgroup_fence_operand(acc);
    warpgroup_arrive();
    gemm(tiled_mma, tCrA(_, _, _, read_stage), tCrB(_, _, _, read_stage), acc);
    warpgroup_commit_batch();
    warpgroup_wait<1>();  // batch kt - 1 is complete (its stage is free after the next barrier); kt keeps running
    warpgroup_fence_operand(acc);
  }
  warpgroup_wait<0>();  // the accumulators are final
  warpgroup_fence_operand(acc);
  cp_async_wait<0>();   // only empty groups can be pending: drain them before the block exits

  // ---- epilogue: the GMMA accumulator layout's first value mode pairs adjacent columns (acc(i), acc(i + 1) for
  // even i), stored together as a float2; the identity tensor of C gives each pair's (m, n) in the tile.
  Tensor tCgC = thr_mma.partition_C(gC);                                               // (MMA, MMA_M, MMA_N)
  Tensor tCcC = thr_mma.partition_C(make_identity_tensor(Shape<Int<BM>, Int<BN>>{}));  // -> (m, n) in the tile
  static_assert(decltype(size<0, 0>(acc))::value == 2, "column pairs first");
  CUTE_UNROLL
  for (int i = 0; i < size(acc); i += 2) {
    if (get<0>(tCcC(i)) < m_left && get<1>(tCcC(i)) < n_left)
      *reinterpret_cast<float2*>(&tCgC(i)) = make_float2(acc(i), acc(i + 1));
  }
#endif
}
