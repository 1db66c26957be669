// Hopper (sm_90a) attention forward, O = softmax(Q K^T * scale [+ causal mask]) V, bf16 in and out, f32 math, in the
// FlashAttention-3 spirit, written in raw PTX: TMA tile loads through runner-built 4-D tensor maps, an mbarrier
// ring of K and V stages, wgmma for both products, producer/consumer warp specialization with setmaxnreg, and the
// online softmax on the wgmma accumulator fragments in registers.
//
// A block owns BM = 64 * NWG query rows of one (batch, head) and has NWG + 1 warpgroups:
//   warpgroup 0       producer: gives registers back (setmaxnreg.dec); one thread loads Q once, then streams K and V
//                     tiles of BN keys into a STAGES-deep ring (separate "full" and "empty" barriers for K and V, so
//                     a K stage is refilled as soon as its scores are computed, before the V of the same tile is used);
//   warpgroups 1..NWG consumers (setmaxnreg.inc): warpgroup c owns query rows 64(c-1) .. 64(c-1)+63 for the whole
//                     kernel. Per tile: S = Q K^T by wgmma m64nBNk16 with both operands in shared memory (K stored
//                     [key][d] is the K-major B operand), mask, online softmax on the f32 fragments (exp2 domain),
//                     P converted to bf16 in registers, O += P V by wgmma m64nHDk16 with P as the register A operand
//                     and V ([key][d], i.e. N-major) as the transposed B operand.
// OVERLAP = 1 (intra-warpgroup pipelining): in iteration j the warpgroup issues S_j = Q K_j and then O += P_{j-1}
// V_{j-1} back to back, waits only for S_j, and runs the softmax of tile j while the tensor cores still work on
// P_{j-1} V_{j-1}; O is rescaled after that product retires. OVERLAP = 0 runs the two products and the softmax in
// sequence (the ablation's step before).
//
// Tiles in shared memory are 128B-swizzled boxes of 64 head-dim columns (64 bf16 = 128 bytes, the widest box the
// 128B swizzle allows); D = 128 arrives as two boxes side by side. TMA zero-fills rows past S (the tensor map's
// bounds are per head), so no load is predicated; keys past S are masked to -inf and rows past S are not stored.
// Causal: tiles right of the diagonal are never loaded, only tiles that cross it (or S) pay for per-element masks,
// and query blocks run heaviest first.
//
// wgmma and setmaxnreg exist only on sm_90a (compile with --arch sm_90a); a plain sm_90 build is a trapping stub.
// kopt: task attention_fwd
// kopt: arch sm_90a
// kopt: tune OVERLAP in [1, 0]
// kopt: tune PINGPONG in [1, 0]
// kopt: tune BN in [128, 64]
// kopt: tune BNW in [176, 128]
// kopt: tune STAGES in [2, 3]
// kopt: tune NWG in [3, 2]
// Shared memory (SMEM_BYTES below): 1 KB alignment slack + Q (BM x D) + STAGES x (K and V, BN x D each) + barriers.
// kopt: restrict 1024 + 128 * 128 * 2 + STAGES * 2 * max(BN, BNW) * 128 * 2 + 256 <= 227 * 1024
// kopt: tensormap tQ = Q box=(1, 1, 64, 64) swizzle=128B l2promotion=256B
// kopt: tensormap tK = K box=(1, 1, BN, 64) swizzle=128B l2promotion=256B
// kopt: tensormap tV = V box=(1, 1, BN, 64) swizzle=128B l2promotion=256B
// kopt: tensormap tKw = K box=(1, 1, BNW, 64) swizzle=128B l2promotion=256B
// kopt: tensormap tVw = V box=(1, 1, BNW, 64) swizzle=128B l2promotion=256B
// kopt: launch attn_wgmma_d64 grid=(cdiv(S, 64 * NWG), B * H) block=(128 * (NWG + 1)) smem=(1024 + 64 * NWG * 64 * 2 + STAGES * 2 * BN * 64 * 2 + 256) args=(tQ, tK, tV, O, H, S, D, causal, scale) when D == 64
// kopt: launch attn_wgmma_d128_wide grid=(cdiv(S, 128), B * H) block=(384) smem=(1024 + 128 * 128 * 2 + STAGES * 2 * BNW * 128 * 2 + 256) args=(tQ, tKw, tVw, O, H, S, D, causal, scale) when D == 128 and mask == 1
// kopt: launch attn_wgmma_d128 grid=(cdiv(S, 128), B * H) block=(384) smem=(1024 + 128 * 128 * 2 + STAGES * 2 * BN * 128 * 2 + 256) args=(tQ, tK, tV, O, H, S, D, causal, scale)
#include <cuda_bf16.h>

// NVRTC cannot include <cuda.h>; this matches the driver's opaque 128-byte, 64-byte aligned CUtensorMap.
struct alignas(64) CUtensorMap {
  unsigned long long opaque[16];
};
typedef unsigned long long u64;

#define LOG2E 1.4426950408889634f
#define NEG_INF (__int_as_float(0xff800000))
static_assert((BN == 64 || BN == 128) && (BNW == 128 || BNW == 176), "the S = Q K^T wrapper has n64, n128 and n176 forms");
static_assert(NWG == 2 || NWG == 3, "two or three consumer warpgroups");

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)  // defined when compiling for sm_90a (wgmma, setmaxnreg)
#define SM90A_ENABLED 1
#else
#define SM90A_ENABLED 0
#endif

// ---- wgmma wrappers. Accumulators are "+f" (wgmma reads and writes D; scale-d = 0 ignores the old value).
#define ACC4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define ACC16(i) ACC4(i), ACC4(i + 4), ACC4(i + 8), ACC4(i + 12)
#define ACC32(i) ACC16(i), ACC16(i + 16)
#define ACC64(i) ACC32(i), ACC32(i + 32)
#define REGS_0_31                                                                    \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "           \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define REGS_32_63                                                                   \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"

// S[64 x N] (+)= A[64 x 16] * B[16 x N], both from shared memory; trans-a = trans-b = 0: A (Q) and B (K stored
// [key][d]) are K-major.
template <int N>
__device__ __forceinline__ void wgmma_ss(float (&d)[N / 2], u64 da, u64 db, int accumulate);
template <>
__device__ __forceinline__ void wgmma_ss<128>(float (&d)[64], u64 da, u64 db, int accumulate) {
#if SM90A_ENABLED
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" REGS_0_31 ", " REGS_32_63 "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
      : ACC64(0)
      : "l"(da), "l"(db), "r"(accumulate)
      : "memory");
#endif
}
template <>
__device__ __forceinline__ void wgmma_ss<64>(float (&d)[32], u64 da, u64 db, int accumulate) {
#if SM90A_ENABLED
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" REGS_0_31 "}, %32, %33, p, 1, 1, 0, 0;\n}\n"
      : ACC32(0)
      : "l"(da), "l"(db), "r"(accumulate)
      : "memory");
#endif
}

#define REGS_64_87                                                                   \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87"
template <>
__device__ __forceinline__ void wgmma_ss<176>(float (&d)[88], u64 da, u64 db, int accumulate) {
#if SM90A_ENABLED
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16 {" REGS_0_31 ", " REGS_32_63 ", " REGS_64_87 "}, "
      "%88, %89, p, 1, 1, 0, 0;\n}\n"
      : ACC64(0), ACC16(64), ACC4(80), ACC4(84)
      : "l"(da), "l"(db), "r"(accumulate)
      : "memory");
#endif
}

// O[64 x N] += P[64 x 16] * V[16 x N]: A (P, bf16) from registers in the m64k16 fragment layout, B (V stored
// [key][d]: N-major) from shared memory with trans-b = 1 (allowed for 16-bit types).
template <int N>
__device__ __forceinline__ void wgmma_rs(float (&d)[N / 2], const unsigned (&a)[4], u64 db);
template <>
__device__ __forceinline__ void wgmma_rs<128>(float (&d)[64], const unsigned (&a)[4], u64 db) {
#if SM90A_ENABLED
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" REGS_0_31 ", " REGS_32_63 "}, "
      "{%64, %65, %66, %67}, %68, 1, 1, 1, 1;\n"
      : ACC64(0)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db)
      : "memory");
#endif
}
template <>
__device__ __forceinline__ void wgmma_rs<64>(float (&d)[32], const unsigned (&a)[4], u64 db) {
#if SM90A_ENABLED
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" REGS_0_31 "}, "
      "{%32, %33, %34, %35}, %36, 1, 1, 1, 1;\n"
      : ACC32(0)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db)
      : "memory");
#endif
}

// Pins register values in program order relative to the wgmma fences and waits around it: without it the compiler
// could move ordinary reads or writes of an accumulator across a wgmma.wait_group (which names no registers).
template <int N>
__device__ __forceinline__ void fence_regs(float (&r)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(r[i])::"memory");
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"); }

// ---- mbarrier and TMA
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  while (!done) {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  }
}
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_expect(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
// One box of a [B, H, S, D] tensor map; coordinates innermost first: {d, s, h, b}. Rows at or past S are zero-filled
// and still count toward the barrier's transaction bytes.
__device__ __forceinline__ void tma_load4(unsigned dst, const CUtensorMap* map, int d, int s, int h, int b,
                                          unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
      ::"r"(dst), "l"(reinterpret_cast<u64>(map)), "r"(d), "r"(s), "r"(h), "r"(b), "r"(bar)
      : "memory");
}
// Shared-memory matrix descriptor: start >> 4 (bits 0-13), LBO >> 4 (16-29), SBO >> 4 (32-45), 128B swizzle (62-63).
__device__ __forceinline__ u64 make_desc(unsigned addr, unsigned lbo, unsigned sbo) {
  return (u64)((addr & 0x3FFFF) >> 4) | ((u64)(lbo >> 4) << 16) | ((u64)(sbo >> 4) << 32) | (1ull << 62);
}
__device__ __forceinline__ float fast_exp2(float x) {  // exp2(-inf) = +0
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ unsigned pack_bf16(float lo, float hi) {
  __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<unsigned*>(&v);
}

template <int HD, int NW, int KV>
struct Layout {  // byte offsets from the 1024-aligned base; every swizzled box starts on 1024 bytes
  static constexpr int BM = 64 * NW;               // query rows per block: one m64 row block per consumer warpgroup
  // setmaxnreg targets (multiples of 8): 128 x 24 + 256 x 240 = 64512, 128 x 32 + 384 x 160 = 65536 <= 65536.
  static constexpr int PRODUCER_REGS = NW == 2 ? 24 : 32;
  static constexpr int CONSUMER_REGS = NW == 2 ? 240 : 160;
  static constexpr int BOXES = HD / 64;            // 64-column boxes per row of the head dim
  static constexpr int Q_BOX = BM * 128;           // BM rows x 128 B
  static constexpr int KV_BOX = KV * 128;          // KV rows x 128 B
  static constexpr int Q_BYTES = BOXES * Q_BOX;
  static constexpr int KV_BYTES = BOXES * KV_BOX;  // one K (or V) stage
  static constexpr int K_OFF = Q_BYTES;
  static constexpr int V_OFF = K_OFF + STAGES * KV_BYTES;
  static constexpr int BAR_OFF = V_OFF + STAGES * KV_BYTES;
  static constexpr int SMEM = 1024 + BAR_OFF + 256;  // what the launch's smem= expression asks for
  static_assert((4 * STAGES + 1) * 8 <= 256, "the barriers must fit their 256 bytes");
};

// Max (MAX) or sum of row R's values in the 8-column groups LO .. LO + N - 1 of a score fragment, as a tree.
template <int KV, int R, int LO, int N, bool MAX>
__device__ __forceinline__ float row_tree(const float (&s)[KV / 2]) {
  if constexpr (N == 1) {
    return MAX ? fmaxf(s[4 * LO + 2 * R], s[4 * LO + 2 * R + 1]) : s[4 * LO + 2 * R] + s[4 * LO + 2 * R + 1];
  } else {
    const float a = row_tree<KV, R, LO, N / 2, MAX>(s), b = row_tree<KV, R, LO + N / 2, N - N / 2, MAX>(s);
    return MAX ? fmaxf(a, b) : a + b;
  }
}

// The online-softmax step of one tile on this thread's fragments: s[4j + e] is row r = e / 2 (rows lane/4 and
// lane/4 + 8 of the warp's 16), key 8j + 2(lane % 4) + e % 2 of the tile. Masks, updates the running max m (raw
// scores) and the thread's partial row sums l, turns s into unnormalized probabilities and returns the factor
// alpha that rescales everything accumulated so far.
template <int KV, bool MASK>
__device__ __forceinline__ void softmax_tile(float (&s)[KV / 2], float (&m)[2], float (&l)[2], float (&alpha)[2],
                                             int kv0, int row0, int S, int causal, float sl2) {
  const int lane = threadIdx.x % 32;
  if (MASK) {
#pragma unroll
    for (int j = 0; j < KV / 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int key = kv0 + 8 * j + 2 * (lane % 4) + (e & 1);
        const int row = row0 + 8 * (e >> 1);
        if (key >= S || (causal && key > row)) s[4 * j + e] = NEG_INF;
      }
  }
  // Row maxima and sums as trees (independent operations in flight: a consumer warp has few warps beside it to
  // hide the FP32 latency), not as one dependent chain per row.
  float mx[2];
  mx[0] = fmaxf(m[0], row_tree<KV, 0, 0, KV / 8, true>(s));
  mx[1] = fmaxf(m[1], row_tree<KV, 1, 0, KV / 8, true>(s));
  float ms[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 1));
    mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 2));
    // A row whose keys are all masked so far keeps max -inf: subtract 0 instead (exp2(-inf) = 0, no inf - inf).
    ms[r] = mx[r] == NEG_INF ? 0.0f : mx[r] * sl2;
    alpha[r] = fast_exp2(m[r] * sl2 - ms[r]);  // 0 on the first tile (m = -inf)
    m[r] = mx[r];
  }
#pragma unroll
  for (int j = 0; j < KV / 8; ++j) {
    s[4 * j + 0] = fast_exp2(fmaf(s[4 * j + 0], sl2, -ms[0]));
    s[4 * j + 1] = fast_exp2(fmaf(s[4 * j + 1], sl2, -ms[0]));
    s[4 * j + 2] = fast_exp2(fmaf(s[4 * j + 2], sl2, -ms[1]));
    s[4 * j + 3] = fast_exp2(fmaf(s[4 * j + 3], sl2, -ms[1]));
  }
  l[0] = l[0] * alpha[0] + row_tree<KV, 0, 0, KV / 8, false>(s);
  l[1] = l[1] * alpha[1] + row_tree<KV, 1, 0, KV / 8, false>(s);
}

// P (f32 fragments of S) -> bf16 A fragments of the P V wgmma: for the k16 step kk (keys 16kk .. 16kk + 15) the
// accumulator groups j = 2kk and 2kk + 1 are exactly the register-A layout {row g: k 0-7, row g+8: k 0-7, row g: k
// 8-15, row g+8: k 8-15} (the m64nNk16 C layout and the m64k16 A layout agree per warp).
template <int KV>
__device__ __forceinline__ void convert_p(const float (&s)[KV / 2], unsigned (&p)[KV / 16][4]) {
#pragma unroll
  for (int kk = 0; kk < KV / 16; ++kk) {
    p[kk][0] = pack_bf16(s[8 * kk + 0], s[8 * kk + 1]);
    p[kk][1] = pack_bf16(s[8 * kk + 2], s[8 * kk + 3]);
    p[kk][2] = pack_bf16(s[8 * kk + 4], s[8 * kk + 5]);
    p[kk][3] = pack_bf16(s[8 * kk + 6], s[8 * kk + 7]);
  }
}

template <int HD, int NW, int KV>
__device__ __forceinline__ void attention(const CUtensorMap* tQ, const CUtensorMap* tK, const CUtensorMap* tV,
                                          __nv_bfloat16* __restrict__ O, int H, int S, int causal, float scale) {
#if !SM90A_ENABLED
  __trap();  // built for plain sm_90 or older: wgmma and setmaxnreg are not available. Compile with --arch sm_90a.
#else
  using L = Layout<HD, NW, KV>;
  constexpr int BM = L::BM;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  const unsigned raw = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw));
  const unsigned base = (raw + 1023u) & ~1023u;  // the dynamic window is not guaranteed 1024-aligned
  const unsigned sQ = base, sK = base + L::K_OFF, sV = base + L::V_OFF;
  const unsigned q_full = base + L::BAR_OFF;
  const unsigned k_full = q_full + 8, k_empty = k_full + 8 * STAGES;
  const unsigned v_full = k_empty + 8 * STAGES, v_empty = v_full + 8 * STAGES;

  const int wg = threadIdx.x / 128, warp_in_wg = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
  const int q0 = (gridDim.x - 1 - blockIdx.x) * BM;  // heaviest (causal) query blocks first
  const int bh = blockIdx.y, h = bh % H, b = bh / H;
  const int kv_end = causal ? min(S, q0 + BM) : S;   // keys at or past kv_end are masked for every row
  const int n_tiles = (kv_end + KV - 1) / KV;        // >= 1: q0 < S

  if (threadIdx.x == 0) {
    unsigned dyn_smem;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn_smem));
    if (dyn_smem < L::SMEM) __trap();  // the launch's smem= does not match this layout
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(q_full) : "memory");
    for (int s = 0; s < STAGES; ++s) {
      // full: the producer's arrive.expect_tx plus the bytes. empty: lane 0 of every consumer warp, after its own
      // wgmma.wait_group, so no operand read of the stage can still be pending.
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(k_full + 8 * s) : "memory");
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(v_full + 8 * s) : "memory");
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(k_empty + 8 * s), "r"(NW * 4) : "memory");
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(v_empty + 8 * s), "r"(NW * 4) : "memory");
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();  // the last block-wide barrier: the warpgroups run independently from here on

  // Tile j uses stage j % STAGES and waits with parity (j / STAGES) & 1 on both sides; the producer's first pass
  // waits for parity 1 on the empty barriers, which a fresh barrier counts as complete.
  if (wg == 0) {
    // ---------------------------------------------------------------- producer
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(L::PRODUCER_REGS));
    if (warp_in_wg == 0 && lane == 0) {
      asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<u64>(tQ)) : "memory");
      asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<u64>(tK)) : "memory");
      asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<u64>(tV)) : "memory");
      mbar_expect(q_full, L::Q_BYTES);
      for (int c = 0; c < L::BOXES; ++c)    // 64-row boxes: the same map serves 128- and 192-row blocks
        for (int r = 0; r < NW; ++r) tma_load4(sQ + c * L::Q_BOX + r * 64 * 128, tQ, 64 * c, q0 + 64 * r, h, b, q_full);
      for (int j = 0; j < n_tiles; ++j) {
        const int s = j % STAGES;
        const unsigned parity = ((j / STAGES) & 1) ^ 1;
        mbar_wait(k_empty + 8 * s, parity);
        mbar_expect(k_full + 8 * s, L::KV_BYTES);
        for (int c = 0; c < L::BOXES; ++c)
          tma_load4(sK + s * L::KV_BYTES + c * L::KV_BOX, tK, 64 * c, j * KV, h, b, k_full + 8 * s);
        mbar_wait(v_empty + 8 * s, parity);
        mbar_expect(v_full + 8 * s, L::KV_BYTES);
        for (int c = 0; c < L::BOXES; ++c)
          tma_load4(sV + s * L::KV_BYTES + c * L::KV_BOX, tV, 64 * c, j * KV, h, b, v_full + 8 * s);
      }
    }
    // The other producer threads have nothing to do; no block-wide barrier follows, so they may finish.
  } else {
    // ---------------------------------------------------------------- consumers
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(L::CONSUMER_REGS));
    const int cw = wg - 1;
    const int wrow0 = q0 + 64 * cw;                    // this warpgroup's first query row
    const int row0 = wrow0 + 16 * warp_in_wg + lane / 4;  // this thread's rows: row0 and row0 + 8
    const float sl2 = scale * LOG2E;
    // Q descriptors (A, K-major, 128B swizzle): this warpgroup's 64 rows of each box; SBO = 8 rows x 128 B; a k16
    // step moves 32 bytes along the row (the hardware applies the swizzle to the final address, as TMA did).
    const unsigned q_rows = sQ + cw * 64 * 128;

    float o[HD / 2];
#pragma unroll
    for (int i = 0; i < HD / 2; ++i) o[i] = 0.0f;
    float m[2] = {NEG_INF, NEG_INF}, l[2] = {0.0f, 0.0f}, alpha[2];
    float sc[KV / 2];
    unsigned p[KV / 16][4];

    // S = Q K_j on stage s (issued, not waited).
    auto issue_qk = [&](int s) {
      const unsigned k_stage = sK + s * L::KV_BYTES;
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < HD / 16; ++kk) {
        const u64 da = make_desc(q_rows + (kk / 4) * L::Q_BOX + (kk % 4) * 32, 16, 1024);
        // K is K-major too: KV rows (keys) of 128 B per box, the same descriptor form.
        const u64 db = make_desc(k_stage + (kk / 4) * L::KV_BOX + (kk % 4) * 32, 16, 1024);
        wgmma_ss<KV>(sc, da, db, kk != 0);
      }
      wgmma_commit();
    };
    // O += P V_j on stage s (issued, not waited). V is N-major: rows are keys (128 B = 64 d each), 8-row groups
    // SBO = 1024 apart, the next 64 d columns are the next box (LBO = one box); a k16 step moves 16 rows.
    auto issue_pv = [&](int s) {
      const unsigned v_stage = sV + s * L::KV_BYTES;
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < KV / 16; ++kk) wgmma_rs<HD>(o, p[kk], make_desc(v_stage + kk * 16 * 128, L::KV_BOX, 1024));
      wgmma_commit();
    };
    auto release = [&](unsigned bar) {
      if (lane == 0) mbar_arrive(bar);
    };
    auto softmax = [&](int j) {
      const int kv0 = j * KV;
      // Masks only where an element of this warpgroup's rows can be masked: the tile crosses S, or (causal) it
      // reaches past the warpgroup's first row.
      if (kv0 + KV > S || (causal && kv0 + KV - 1 > wrow0))
        softmax_tile<KV, true>(sc, m, l, alpha, kv0, row0, S, causal, sl2);
      else
        softmax_tile<KV, false>(sc, m, l, alpha, kv0, row0, S, causal, sl2);
    };
    // Ping-pong (PINGPONG = 1, with OVERLAP = 1): the consumer warpgroups take turns issuing their GEMMs, in a ring
    // of named barriers (barrier 1 + c is warpgroup c's turn: its 128 threads sync, the previous warpgroup's 128
    // arrive), so that while one warpgroup's products run on the tensor cores the others do their softmax. Every
    // warpgroup takes n_tiles + 1 turns; the last warpgroup starts the ring and skips its final hand-over, so each
    // barrier sees as many arrivals as syncs.
    auto turn_begin = [&]() {
      if (PINGPONG) asm volatile("bar.sync %0, 256;" ::"r"(1 + cw) : "memory");
    };
    auto turn_end = [&](bool last) {
      if (PINGPONG && !(last && cw == NW - 1)) asm volatile("bar.arrive %0, 256;" ::"r"(1 + (cw + 1) % NW) : "memory");
    };
    auto rescale_o = [&]() {
#pragma unroll
      for (int i = 0; i < HD / 8; ++i) {
        o[4 * i + 0] *= alpha[0];
        o[4 * i + 1] *= alpha[0];
        o[4 * i + 2] *= alpha[1];
        o[4 * i + 3] *= alpha[1];
      }
    };

    mbar_wait(q_full, 0);
#if OVERLAP
    if (PINGPONG && cw == NW - 1) asm volatile("bar.arrive 1, 256;" ::: "memory");  // warpgroup 0 goes first
    // Prologue: tile 0's scores and softmax.
    mbar_wait(k_full, 0);
    turn_begin();
    issue_qk(0);
    turn_end(false);
    wgmma_wait<0>();
    fence_regs(sc);
    release(k_empty);
    softmax(0);
    convert_p<KV>(sc, p);
    for (int j = 1; j < n_tiles; ++j) {
      const int s = j % STAGES, ps = (j - 1) % STAGES;
      mbar_wait(k_full + 8 * s, (j / STAGES) & 1);
      mbar_wait(v_full + 8 * ps, ((j - 1) / STAGES) & 1);
      turn_begin();
      issue_qk(s);                                       // S_j = Q K_j
      issue_pv(ps);                                      // O += P_{j-1} V_{j-1}, behind S_j in the queue
      turn_end(false);
      wgmma_wait<1>();                                   // S_j is done; P V may still run
      fence_regs(sc);
      release(k_empty + 8 * s);
      softmax(j);                                        // overlaps the P V product
      wgmma_wait<0>();
      fence_regs(o);
      fence_regs(sc);  // the new P is written only after the old one (the last product's A operand) was consumed
      release(v_empty + 8 * ps);
      rescale_o();
      convert_p<KV>(sc, p);
    }
    {
      const int ps = (n_tiles - 1) % STAGES;
      mbar_wait(v_full + 8 * ps, ((n_tiles - 1) / STAGES) & 1);
      turn_begin();
      issue_pv(ps);
      turn_end(true);
      wgmma_wait<0>();
      fence_regs(o);
      release(v_empty + 8 * ps);
    }
#else
    for (int j = 0; j < n_tiles; ++j) {
      const int s = j % STAGES;
      const unsigned parity = (j / STAGES) & 1;
      mbar_wait(k_full + 8 * s, parity);
      issue_qk(s);
      wgmma_wait<0>();
      fence_regs(sc);
      release(k_empty + 8 * s);
      softmax(j);
      rescale_o();
      convert_p<KV>(sc, p);
      mbar_wait(v_full + 8 * s, parity);
      issue_pv(s);
      wgmma_wait<0>();
      fence_regs(o);
      release(v_empty + 8 * s);
    }
#endif

    // Epilogue: full row sums over the quad, O / l to bf16, stored straight from the fragments (row g: columns
    // 8i + 2(lane % 4) .. + 1 of every 8-column group i); rows past S are not stored.
    float inv[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
      l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
      inv[r] = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;
    }
    __nv_bfloat16* out = O + ((long long)bh * S + row0) * HD + 2 * (lane % 4);
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      if (row0 + 8 * r < S) {
#pragma unroll
        for (int i = 0; i < HD / 8; ++i)
          *reinterpret_cast<unsigned*>(out + 8 * r * HD + 8 * i) =
              pack_bf16(o[4 * i + 2 * r] * inv[r], o[4 * i + 2 * r + 1] * inv[r]);
      }
    }
  }
#endif
}

// One kernel per head dim (the launch lines pick by D). One block per SM: the consumers take almost every register.
// D = 64 has NWG consumer warpgroups; D = 128 always two (its O, S and P fragments need 160 registers alone, more
// than the 160 a third consumer warpgroup would leave each).
extern "C" __global__ void __launch_bounds__(128 * (NWG + 1), 1)
    attn_wgmma_d64(const __grid_constant__ CUtensorMap tQ, const __grid_constant__ CUtensorMap tK,
                   const __grid_constant__ CUtensorMap tV, __nv_bfloat16* __restrict__ O, int H, int S, int D,
                   int causal, float scale) {
  if (D != 64) __trap();  // the launch lines pick this kernel only for D = 64
  attention<64, NWG, BN>(&tQ, &tK, &tV, O, H, S, causal, scale);
}

extern "C" __global__ void __launch_bounds__(384, 1)
    attn_wgmma_d128(const __grid_constant__ CUtensorMap tQ, const __grid_constant__ CUtensorMap tK,
                    const __grid_constant__ CUtensorMap tV, __nv_bfloat16* __restrict__ O, int H, int S, int D,
                    int causal, float scale) {
  if (D != 128) __trap();
  attention<128, 2, BN>(&tQ, &tK, &tV, O, H, S, causal, scale);
}

// D = 128 without the causal mask: wider key tiles (BNW): the per-tile fixed costs (row reductions, the O
// rescale, barrier waits) are paid per BNW keys; causal attention keeps BN, where a wide tile would mostly be masked
// on the diagonal.
extern "C" __global__ void __launch_bounds__(384, 1)
    attn_wgmma_d128_wide(const __grid_constant__ CUtensorMap tQ, const __grid_constant__ CUtensorMap tK,
                         const __grid_constant__ CUtensorMap tV, __nv_bfloat16* __restrict__ O, int H, int S, int D,
                         int causal, float scale) {
  if (D != 128 || causal) __trap();  // the launch lines pick this kernel only for D = 128 without the mask
  attention<128, 2, BNW>(&tQ, &tK, &tV, O, H, S, causal, scale);
}
