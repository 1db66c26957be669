// attention_fwd's reference on the GPU, in float64 (the check's reference_cuda; reference.py defines it):
// O = softmax(Q K^T * scale, masked to keys j <= i when causal) V per (batch, head), with the row max and sum kept
// online over tiles of 32 keys. Both products run on the float64 tensor cores (mma m8n8k4 .f64: IEEE double
// fused multiply-adds, sm_80 and later): bf16 values widened to double are exact, and every product and sum is a
// double operation. Each block owns 64 queries of one (batch, head), each warp 8 of them: the warp's Q rows stay in
// registers as A fragments, the scores' C fragments give each lane two keys of one row (the row's max and sum over
// the 4 lanes that share it), and the probabilities go through shared memory to become P V's A fragments. The next
// tile of K and V is read into registers while the tensor cores work on this one. The scale is the exact 1 / sqrt(D)
// that reference.py uses (the kernels get it rounded to float). Written for D <= 128 (the task's 64 and 128); a
// larger D gives NaN outputs, which no candidate matches.
// kopt: assume S >= 1 && D >= 1 && D <= 128
// kopt: launch attention_fwd_ref grid=(cdiv(S, 64), B * H) block=(256) smem=(87040) args=(Q, K, V, O, S, D, causal, f64(1.0 / D ** 0.5))
#define QT 64        // queries per block, 8 per warp
#define KT 32        // keys per tile: four independent score chains per warp
#define DMAX 128
#define THREADS 256
#define WARPS (THREADS / 32)
#define PER (KT * DMAX / THREADS)  // elements of K (and of V) each thread moves per tile
// Row strides in doubles: a fragment read touches 8 rows x 4 columns (K, P) or 4 rows x 8 columns (V); these
// strides put each half-warp's 128 bytes in distinct banks, two wavefronts per read, the least 256 bytes take.
#define KSTRIDE (DMAX + 4)
#define VSTRIDE (DMAX + 8)
#define PSTRIDE (KT + 4)
static_assert((KT * KSTRIDE + KT * VSTRIDE + WARPS * 8 * PSTRIDE) * 8 == 87040, "the launch's smem");
#define NEG_INF __longlong_as_double(0xfff0000000000000ll)

__device__ __forceinline__ double bf16(unsigned short h) { return (double)__uint_as_float((unsigned)h << 16); }

// c (8 x 8, C fragment) += a (8 x 4, row) * b (4 x 8, col). Lane l holds a[l / 4][l % 4], b[l % 4][l / 4] and
// c[l / 4][2 (l % 4) + i].
__device__ __forceinline__ void dmma(double (&c)[2], double a, double b) {
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+d"(c[0]), "+d"(c[1])
               : "d"(a), "d"(b));
}

extern "C" __global__ void __launch_bounds__(THREADS, 1) attention_fwd_ref(const unsigned short* __restrict__ Q, const unsigned short* __restrict__ K,
                                             const unsigned short* __restrict__ V, double* __restrict__ O, int S,
                                             int D, int causal, double scale) {
  extern __shared__ double smem[];  // 87040 bytes (the launch's smem)
  double(*ks)[KSTRIDE] = reinterpret_cast<double(*)[KSTRIDE]>(smem);
  double(*vs)[VSTRIDE] = reinterpret_cast<double(*)[VSTRIDE]>(smem + KT * KSTRIDE);
  double(*ps)[8][PSTRIDE] = reinterpret_cast<double(*)[8][PSTRIDE]>(smem + KT * KSTRIDE + KT * VSTRIDE);
  const int t = threadIdx.x, lane = t % 32, warp = t / 32, g = lane / 4, q = lane % 4;
  const int q0 = blockIdx.x * QT, row = q0 + warp * 8 + g;  // this lane's query in the A and C fragments
  const long long base = (long long)blockIdx.y * S * D;
  if (D > DMAX) {
    for (int e = t; e < QT * D; e += THREADS)
      if (q0 + e / D < S) O[base + (long long)q0 * D + e] = __longlong_as_double(0x7ff8000000000000ll);
    return;
  }
  const int dsteps = (D + 3) / 4, dblocks = (D + 7) / 8;  // k steps of Q K^T, 8-column blocks of O
  double qf[DMAX / 4];
#pragma unroll
  for (int kk = 0; kk < DMAX / 4; ++kk) {
    const int c = 4 * kk + q;
    qf[kk] = row < S && c < D ? bf16(Q[base + (long long)row * D + c]) : 0.0;
  }
  double o[DMAX / 8][2];
#pragma unroll
  for (int nb = 0; nb < DMAX / 8; ++nb) o[nb][0] = o[nb][1] = 0.0;
  double row_max = NEG_INF, row_sum = 0.0;
  const int key_end = causal ? min(S, q0 + QT) : S;  // later keys are masked for every query of the block

  unsigned kr[PER / 2], vr[PER / 2];  // the next tile on its way from global memory: two bf16 per register
  auto fetch = [&](int k0) {
#pragma unroll
    for (int i = 0; i < PER / 2; ++i) {
      const int e = 2 * (t + i * THREADS), r = e / DMAX, c = e % DMAX;  // columns c, c + 1 (zeros past S and D)
      const long long at = base + (long long)(k0 + r) * D + c;
      const bool in0 = k0 + r < S && c < D, in1 = k0 + r < S && c + 1 < D;
      kr[i] = (in0 ? K[at] : 0u) | (in1 ? (unsigned)K[at + 1] << 16 : 0u);
      vr[i] = (in0 ? V[at] : 0u) | (in1 ? (unsigned)V[at + 1] << 16 : 0u);
    }
  };
  fetch(0);
  for (int k0 = 0; k0 < key_end; k0 += KT) {
    __syncthreads();  // the previous tile is no longer read
#pragma unroll
    for (int i = 0; i < PER / 2; ++i) {
      const int e = 2 * (t + i * THREADS), r = e / DMAX, c = e % DMAX;
      ks[r][c] = bf16(kr[i] & 0xffffu);
      ks[r][c + 1] = bf16(kr[i] >> 16);
      vs[r][c] = bf16(vr[i] & 0xffffu);
      vs[r][c + 1] = bf16(vr[i] >> 16);
    }
    __syncthreads();
    if (k0 + KT < key_end) fetch(k0 + KT);

    double s[KT / 8][2];  // scores of this warp's 8 queries x the tile's keys
#pragma unroll
    for (int nb = 0; nb < KT / 8; ++nb) s[nb][0] = s[nb][1] = 0.0;
#pragma unroll
    for (int kk = 0; kk < DMAX / 4; ++kk)
      if (kk < dsteps)
#pragma unroll
        for (int nb = 0; nb < KT / 8; ++nb) dmma(s[nb], qf[kk], ks[8 * nb + g][4 * kk + q]);

    double tile_max = NEG_INF;
#pragma unroll
    for (int nb = 0; nb < KT / 8; ++nb)
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const int key = k0 + 8 * nb + 2 * q + i;
        s[nb][i] = key < S && !(causal && key > row) ? s[nb][i] * scale : NEG_INF;
        tile_max = fmax(tile_max, s[nb][i]);
      }
    tile_max = fmax(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 1));  // the 4 lanes of the row
    tile_max = fmax(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 2));
    const double m = fmax(row_max, tile_max);
    const double rescale = m == NEG_INF ? 1.0 : exp(row_max - m);  // 0 on the row's first keys (row_max -inf)
    double sum = 0.0;
#pragma unroll
    for (int nb = 0; nb < KT / 8; ++nb)
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const double e = m == NEG_INF ? 0.0 : exp(s[nb][i] - m);
        ps[warp][g][8 * nb + 2 * q + i] = e;
        sum += e;
      }
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    sum += __shfl_xor_sync(0xffffffffu, sum, 2);
    row_sum = row_sum * rescale + sum;
    row_max = m;
    __syncwarp();  // the warp's probabilities are in ps
#pragma unroll
    for (int nb = 0; nb < DMAX / 8; ++nb) {
      o[nb][0] *= rescale;
      o[nb][1] *= rescale;
    }
#pragma unroll
    for (int kk = 0; kk < KT / 4; ++kk) {
      const double a = ps[warp][g][4 * kk + q];
#pragma unroll
      for (int nb = 0; nb < DMAX / 8; ++nb)
        if (nb < dblocks) dmma(o[nb], a, vs[4 * kk + q][8 * nb + g]);
    }
    __syncwarp();  // ps is read before the next tile overwrites it
  }
#pragma unroll
  for (int nb = 0; nb < DMAX / 8; ++nb)
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int d = 8 * nb + 2 * q + i;
      if (row < S && d < D) O[base + (long long)row * D + d] = o[nb][i] / row_sum;
    }
}
