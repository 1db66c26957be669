// Flash-attention-2-style forward pass (bf16, sm_80+): O = softmax(Q K^T * scale [+ causal mask]) V without ever
// writing the S x S score matrix. A block owns BLOCK_M query rows of one (batch, head); each of its BLOCK_M / 16
// warps owns 16 of those rows for the whole kernel. K and V are streamed through shared memory in tiles of BLOCK_N
// keys with cp.async (two stages: tile j + 1 lands while tile j is used). Per tile, a warp computes its 16 x BLOCK_N
// scores with mma.sync m16n8k16 (operands from shared memory by ldmatrix), folds them into a running row max m and
// row sum l (online softmax in the exp2 domain: the logits are scaled by scale * log2(e) once, so every exponential
// is one FFMA and one MUFU.EX2), rescales its f32 output accumulator by exp2(m_old - m_new), and adds P V, with the
// probabilities P taken straight from the score accumulators as bf16 A fragments (the C layout of one k16 pair of
// n8 tiles is the A layout) and V read transposed by ldmatrix.trans. Nothing leaves the registers until the end:
// O / l is staged through the warp's own Q rows in shared memory and written with 16-byte stores.
//
// Shared-memory tiles are rows of HD bf16 (128 or 256 B) whose 16-byte chunks are XOR-swizzled by (row % 8), so the
// eight row addresses of every ldmatrix phase, and the cp.async writes, hit eight different bank groups.
// Causal: tiles entirely above the diagonal are never loaded, and only the tiles that cross the diagonal (or the end
// of the sequence) pay for per-element masks. Query blocks are issued heaviest first (reversed blockIdx.x) so the
// long causal rows do not form the tail. S need not be a multiple of any tile: rows and keys past S are zero-filled
// by cp.async (src-size 0), masked keys get -inf, and rows past S are never stored.
//
// The head dim is a template parameter. kopt compiles one cubin per tunable configuration for every shape, so both
// instantiations are launched: each one is given a one-block grid when the task's D is the other head dim, and that
// block returns at once (an empty launch, next to milliseconds of attention at the timed shapes).
// kopt: task attention_fwd
// kopt: tune BLOCK_M in [64, 128]
// kopt: tune BLOCK_N in [64, 32]
// kopt: launch attn_fwd_d64 grid=(cdiv(S, BLOCK_M) if D == 64 else 1, B * H if D == 64 else 1) block=(2 * BLOCK_M) smem=((BLOCK_M + 4 * BLOCK_N) * 64 * 2 if D == 64 else 0) args=(Q, K, V, O, S, D, causal, scale)
// kopt: launch attn_fwd_d128 grid=(cdiv(S, BLOCK_M) if D == 128 else 1, B * H if D == 128 else 1) block=(2 * BLOCK_M) smem=((BLOCK_M + 4 * BLOCK_N) * 128 * 2 if D == 128 else 0) args=(Q, K, V, O, S, D, causal, scale)
#include <cuda_bf16.h>

#define NWARPS (BLOCK_M / 16)  // each warp owns 16 query rows
#define NTHREADS (NWARPS * 32)
#define LOG2E 1.4426950408889634f
#define NEG_INF (__int_as_float(0xff800000))

// --- PTX wrappers -------------------------------------------------------------------------------------------------
__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
// 16-byte global -> shared copy; src_bytes = 0 reads nothing and zero-fills the 16 bytes.
__device__ __forceinline__ void cp_async_16(unsigned dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

// Four 8x8 b16 matrices; lanes 8i..8i+7 give the row addresses of matrix i, register i receives matrix i.
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
// The same, each matrix transposed on the way (used for V, stored key-major but needed as a k-major B operand).
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
// c (16x8 f32) += a (16x16 bf16, row) * b (16x8 bf16, col).
__device__ __forceinline__ void mma_bf16_16816(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ float fast_exp2(float x) {  // exp2(-inf) = +0
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}
// Two floats -> one register of two bf16 (lo in the low half, as the mma fragments expect).
__device__ __forceinline__ unsigned pack_bf16(float lo, float hi) {
  __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<unsigned*>(&v);
}

// --- shared-memory layout ----------------------------------------------------------------------------------------
// Element offset of (row, col) in a tile of HD-wide rows: 16-byte chunk col / 8 is stored at chunk (col / 8) ^ (row % 8).
template <int HD>
__device__ __forceinline__ int swz(int row, int col) {
  return row * HD + (((col >> 3) ^ (row & 7)) << 3) + (col & 7);
}

// Rows r0 .. r0 + ROWS - 1 of one head ([S, HD] at g) -> a swizzled shared tile; rows at or past S are zero-filled.
template <int HD, int ROWS>
__device__ __forceinline__ void load_tile(__nv_bfloat16* tile, const __nv_bfloat16* __restrict__ g, int r0, int S) {
  constexpr int CHUNKS = HD / 8;  // 16-byte chunks per row
  static_assert((ROWS * CHUNKS) % NTHREADS == 0, "tile chunks must split evenly over the block");
#pragma unroll
  for (int i = 0; i < ROWS * CHUNKS / NTHREADS; ++i) {
    const int idx = i * NTHREADS + threadIdx.x;
    const int r = idx / CHUNKS, c = idx % CHUNKS;
    const bool in = r0 + r < S;
    const __nv_bfloat16* src = g + (long long)(in ? r0 + r : 0) * HD + c * 8;  // a valid address even when unread
    cp_async_16(smem_addr(tile + swz<HD>(r, c * 8)), src, in ? 16 : 0);
  }
}

template <int HD>
__device__ __forceinline__ void attention_tile(const __nv_bfloat16* __restrict__ Q, const __nv_bfloat16* __restrict__ K,
                                               const __nv_bfloat16* __restrict__ V, __nv_bfloat16* __restrict__ O,
                                               int S, int causal, float scale, __nv_bfloat16* smem) {
  __nv_bfloat16* sQ = smem;                         // [BLOCK_M][HD]; later the output staging
  __nv_bfloat16* sK = sQ + BLOCK_M * HD;            // [2][BLOCK_N][HD]
  __nv_bfloat16* sV = sK + 2 * BLOCK_N * HD;        // [2][BLOCK_N][HD]

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int q0 = (gridDim.x - 1 - blockIdx.x) * BLOCK_M;  // heaviest (causal) query blocks first
  const long long head = (long long)blockIdx.y * S * HD;
  Q += head;
  K += head;
  V += head;
  O += head;

  // Keys at or past kv_end are masked for every row of this block.
  const int kv_end = causal ? min(S, q0 + BLOCK_M) : S;
  const int n_tiles = (kv_end + BLOCK_N - 1) / BLOCK_N;

  load_tile<HD, BLOCK_M>(sQ, Q, q0, S);
  load_tile<HD, BLOCK_N>(sK, K, 0, S);
  load_tile<HD, BLOCK_N>(sV, V, 0, S);
  cp_async_commit();

  float o[HD / 8][4];  // this warp's 16 x HD output, C layout of HD / 8 n8 tiles
#pragma unroll
  for (int j = 0; j < HD / 8; ++j) o[j][0] = o[j][1] = o[j][2] = o[j][3] = 0.0f;
  float m[2] = {NEG_INF, NEG_INF};  // running max of the raw scores of rows g and g + 8 (g = lane / 4)
  float l[2] = {0.0f, 0.0f};        // this thread's share of the running sums (the quad adds them at the end)
  const float sl2 = scale * LOG2E;
  const int wrow = warp * 16;                // the warp's first row in the block
  const int qrow = q0 + wrow + lane / 4;     // query row of c0, c1 (c2, c3: qrow + 8)

  for (int t = 0; t < n_tiles; ++t) {
    const int stage = t & 1;
    if (t + 1 < n_tiles) {  // prefetch tile t + 1 into the other stage, then wait for tile t only
      load_tile<HD, BLOCK_N>(sK + (stage ^ 1) * BLOCK_N * HD, K, (t + 1) * BLOCK_N, S);
      load_tile<HD, BLOCK_N>(sV + (stage ^ 1) * BLOCK_N * HD, V, (t + 1) * BLOCK_N, S);
      cp_async_commit();
      cp_async_wait<1>();
    } else {
      cp_async_wait<0>();
    }
    __syncthreads();  // every thread's copies of tile t (and of Q) are visible
    const __nv_bfloat16* kt = sK + stage * BLOCK_N * HD;
    const __nv_bfloat16* vt = sV + stage * BLOCK_N * HD;

    // s = Q K^T for the warp's 16 rows x BLOCK_N keys.
    float s[BLOCK_N / 8][4];
#pragma unroll
    for (int j = 0; j < BLOCK_N / 8; ++j) s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.0f;
#pragma unroll
    for (int kk = 0; kk < HD / 16; ++kk) {
      unsigned a[4];  // rows wrow + (lane % 16), cols kk * 16 + 8 * (lane / 16)
      ldmatrix_x4(a, smem_addr(sQ + swz<HD>(wrow + (lane & 15), kk * 16 + (lane >> 4) * 8)));
#pragma unroll
      for (int nn = 0; nn < BLOCK_N / 16; ++nn) {
        unsigned b[4];  // keys nn * 16 + (lane % 8) + 8 * (lane / 16), dims kk * 16 + 8 * ((lane / 8) % 2)
        ldmatrix_x4(b, smem_addr(kt + swz<HD>(nn * 16 + (lane & 7) + ((lane >> 4) << 3),
                                              kk * 16 + ((lane >> 3) & 1) * 8)));
        mma_bf16_16816(s[2 * nn], a, b[0], b[1]);
        mma_bf16_16816(s[2 * nn + 1], a, b[2], b[3]);
      }
    }

    // Masks, only where some element of the warp's rows can be masked: the tile crosses S, or (causal) reaches past
    // the warp's first row.
    const int kv0 = t * BLOCK_N;
    if (kv0 + BLOCK_N > S || (causal && kv0 + BLOCK_N - 1 > q0 + wrow)) {
#pragma unroll
      for (int j = 0; j < BLOCK_N / 8; ++j) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int key = kv0 + j * 8 + (lane & 3) * 2 + (e & 1);
          const int row = qrow + (e >> 1) * 8;
          if (key >= S || (causal && key > row)) s[j][e] = NEG_INF;
        }
      }
    }

    // Online softmax: new row max over the quad (the four lanes sharing a row), rescale, exponentiate.
    float mx[2] = {m[0], m[1]};
#pragma unroll
    for (int j = 0; j < BLOCK_N / 8; ++j) {
      mx[0] = fmaxf(mx[0], fmaxf(s[j][0], s[j][1]));
      mx[1] = fmaxf(mx[1], fmaxf(s[j][2], s[j][3]));
    }
    float ms[2], alpha[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 1));
      mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 2));
      // A row with every key so far masked keeps max -inf: subtract 0 instead (exp2(-inf) = 0, no inf - inf).
      ms[r] = mx[r] == NEG_INF ? 0.0f : mx[r] * sl2;
      alpha[r] = fast_exp2(m[r] * sl2 - ms[r]);  // 0 on the first tile (m = -inf)
      m[r] = mx[r];
      l[r] *= alpha[r];
    }
#pragma unroll
    for (int j = 0; j < HD / 8; ++j) {
      o[j][0] *= alpha[0];
      o[j][1] *= alpha[0];
      o[j][2] *= alpha[1];
      o[j][3] *= alpha[1];
    }
#pragma unroll
    for (int j = 0; j < BLOCK_N / 8; ++j) {
      s[j][0] = fast_exp2(fmaf(s[j][0], sl2, -ms[0]));
      s[j][1] = fast_exp2(fmaf(s[j][1], sl2, -ms[0]));
      s[j][2] = fast_exp2(fmaf(s[j][2], sl2, -ms[1]));
      s[j][3] = fast_exp2(fmaf(s[j][3], sl2, -ms[1]));
      l[0] += s[j][0] + s[j][1];
      l[1] += s[j][2] + s[j][3];
    }

    // o += P V: the C fragments of n8 tiles 2kk and 2kk + 1 are the A fragment of k16 step kk.
#pragma unroll
    for (int kk = 0; kk < BLOCK_N / 16; ++kk) {
      const unsigned a[4] = {pack_bf16(s[2 * kk][0], s[2 * kk][1]), pack_bf16(s[2 * kk][2], s[2 * kk][3]),
                             pack_bf16(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                             pack_bf16(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
      for (int dd = 0; dd < HD / 16; ++dd) {
        unsigned b[4];  // keys kk * 16 + (lane % 8) + 8 * ((lane / 8) % 2), dims dd * 16 + 8 * (lane / 16)
        ldmatrix_x4_trans(b, smem_addr(vt + swz<HD>(kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8,
                                                    dd * 16 + (lane >> 4) * 8)));
        mma_bf16_16816(o[2 * dd], a, b[0], b[1]);
        mma_bf16_16816(o[2 * dd + 1], a, b[2], b[3]);
      }
    }
    __syncthreads();  // the next iteration's prefetch overwrites this stage
  }

  // Epilogue: full row sums over the quad, O / l to bf16 in the warp's own Q rows (no other warp reads them), then
  // 16-byte stores of the rows below S.
  float inv[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
    inv[r] = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;
  }
#pragma unroll
  for (int j = 0; j < HD / 8; ++j) {
    const int col = j * 8 + (lane & 3) * 2;
    const int row = wrow + lane / 4;
    *reinterpret_cast<unsigned*>(sQ + swz<HD>(row, col)) = pack_bf16(o[j][0] * inv[0], o[j][1] * inv[0]);
    *reinterpret_cast<unsigned*>(sQ + swz<HD>(row + 8, col)) = pack_bf16(o[j][2] * inv[1], o[j][3] * inv[1]);
  }
  __syncwarp();
  constexpr int CHUNKS = HD / 8;
#pragma unroll
  for (int i = 0; i < 16 * CHUNKS / 32; ++i) {
    const int idx = i * 32 + lane;
    const int r = idx / CHUNKS, c = idx % CHUNKS;
    const int grow = q0 + wrow + r;
    if (grow < S) {
      *reinterpret_cast<uint4*>(O + (long long)grow * HD + c * 8) =
          *reinterpret_cast<const uint4*>(sQ + swz<HD>(wrow + r, c * 8));
    }
  }
}

// One kernel per head dim; a launch whose D is the other head dim gets one block, which returns at once.
// D = 64 asks ptxas for two blocks per SM (at most 128 registers at 256 threads: it needs about that many), D = 128
// for one (its 16 x 128 f32 accumulator alone is 64 registers per thread).
extern "C" __global__ void __launch_bounds__(NTHREADS, 2)
    attn_fwd_d64(const __nv_bfloat16* __restrict__ Q, const __nv_bfloat16* __restrict__ K,
                 const __nv_bfloat16* __restrict__ V, __nv_bfloat16* __restrict__ O, int S, int D, int causal,
                 float scale) {
  extern __shared__ __align__(128) unsigned char smem_raw[];
  if (D != 64) return;
  attention_tile<64>(Q, K, V, O, S, causal, scale, reinterpret_cast<__nv_bfloat16*>(smem_raw));
}

extern "C" __global__ void __launch_bounds__(NTHREADS, 1)
    attn_fwd_d128(const __nv_bfloat16* __restrict__ Q, const __nv_bfloat16* __restrict__ K,
                  const __nv_bfloat16* __restrict__ V, __nv_bfloat16* __restrict__ O, int S, int D, int causal,
                  float scale) {
  extern __shared__ __align__(128) unsigned char smem_raw[];
  if (D != 128) return;
  attention_tile<128>(Q, K, V, O, S, causal, scale, reinterpret_cast<__nv_bfloat16*>(smem_raw));
}
