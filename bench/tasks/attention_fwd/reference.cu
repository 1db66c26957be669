// attention_fwd's reference on the GPU, in float64 (the check's reference_cuda; reference.py defines it):
// O = softmax(Q K^T * scale, masked to keys j <= i when causal) V per (batch, head), with the row max and sum kept
// online over tiles of 16 keys. Both products run on the float64 tensor cores (mma m16n8k4 .f64 on sm_90 and later,
// two m8n8k4 before: IEEE double fused multiply-adds; on an H200 m16n8k4 issues at twice m8n8k4's rate): bf16 values
// widened to double are exact, and every product and sum is a double operation. Each block owns 64 queries of one
// (batch, head), each warp 16 of them; two blocks share an SM. The head dimension is a compile-time 64 or 128 (D <= 64
// runs the 64 body, zero columns padding D up to it), so the products' loops unroll without branches and the
// compiler can run loads ahead of the tensor cores; Q is widened once into shared memory. On an H200 these halve the
// D = 64 shapes' time and take a tenth off D = 128's (bench/results/reference_speed.json). The scores' C fragments
// give each lane two keys of two rows (a row's max and sum over the 4 lanes that share it), and the probabilities go
// through shared memory to become P V's A fragments. The next tile of K and V is read into registers while the
// tensor cores work on this one. The scale is the exact 1 / sqrt(D) that reference.py uses (the kernels get it
// rounded to float). Written for D <= 128 (the task's 64 and 128); a larger D gives NaN outputs, which no candidate
// matches.
// kopt: assume S >= 1 && D >= 1 && D <= 128
// kopt: launch attention_fwd_ref grid=(cdiv(S, 64), B * H) block=(128) smem=(111616) args=(Q, K, V, O, S, D, causal, f64(1.0 / D ** 0.5))
#define QT 64        // queries per block, 16 per warp
#define KT 16        // keys per tile
#define DMAX 128
#define THREADS 128
#define WARPS (THREADS / 32)
// Row strides (doubles): a fragment read touches 8 rows x 4 columns (Q, K, P) or 4 rows x 8 columns (V); rows that
// start 8 banks apart put each half-warp's 64-bit accesses in distinct banks (two wavefronts per read, the least 256
// bytes take).
#define STRIDE(dk) ((dk) + 4)
#define PSTRIDE (KT + 4)
#define SMEM_DOUBLES (2 * KT * STRIDE(DMAX) + WARPS * 16 * PSTRIDE + QT * STRIDE(DMAX))
static_assert(SMEM_DOUBLES * 8 == 111616, "the launch's smem");
#define NEG_INF __longlong_as_double(0xfff0000000000000ll)

__device__ __forceinline__ double bf16(unsigned short h) { return (double)__uint_as_float((unsigned)h << 16); }

// c (16 x 8, C fragment) += a (16 x 4, row) * b (4 x 8, col). Lane l holds a[l / 4][l % 4] (a0) and
// a[l / 4 + 8][l % 4] (a1), b[l % 4][l / 4], and c[l / 4][2 (l % 4) + i] (c[i]) and c[l / 4 + 8][2 (l % 4) + i] (c[2 + i]).
__device__ __forceinline__ void dmma(double (&c)[4], double a0, double a1, double b) {
#if __CUDA_ARCH__ >= 900
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
               : "d"(a0), "d"(a1), "d"(b));
#else  // the same products as two m8n8k4, one per half of the rows
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+d"(c[0]), "+d"(c[1])
               : "d"(a0), "d"(b));
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+d"(c[2]), "+d"(c[3])
               : "d"(a1), "d"(b));
#endif
}

// One block's 64 queries with the head dimension padded to DK (64 or 128).
template <int DK>
__device__ __forceinline__ void attend(const unsigned short* __restrict__ Q, const unsigned short* __restrict__ K,
                                       const unsigned short* __restrict__ V, double* __restrict__ O, int S, int D,
                                       int causal, double scale, double* smem) {
  constexpr int PER = KT * DK / THREADS;  // elements of K (and of V) each thread moves per tile
  double(*ks)[STRIDE(DK)] = reinterpret_cast<double(*)[STRIDE(DK)]>(smem);
  double(*vs)[STRIDE(DK)] = reinterpret_cast<double(*)[STRIDE(DK)]>(smem + KT * STRIDE(DK));
  double(*ps)[16][PSTRIDE] = reinterpret_cast<double(*)[16][PSTRIDE]>(smem + 2 * KT * STRIDE(DK));
  double(*qs)[STRIDE(DK)] = reinterpret_cast<double(*)[STRIDE(DK)]>(smem + 2 * KT * STRIDE(DK) + WARPS * 16 * PSTRIDE);
  const int t = threadIdx.x, lane = t % 32, warp = t / 32, g = lane / 4, q = lane % 4;
  const int q0 = blockIdx.x * QT, r0 = warp * 16 + g;  // this lane's rows of the block: r0 and r0 + 8
  const int row[2] = {q0 + r0, q0 + r0 + 8};
  const long long base = (long long)blockIdx.y * S * D;
  for (int e = t; e < QT * DK; e += THREADS) {  // the block's queries, zeros past S and D
    const int r = e / DK, c = e % DK;
    qs[r][c] = q0 + r < S && c < D ? bf16(Q[base + (long long)(q0 + r) * D + c]) : 0.0;
  }
  double o[DK / 8][4];
#pragma unroll
  for (int nb = 0; nb < DK / 8; ++nb) o[nb][0] = o[nb][1] = o[nb][2] = o[nb][3] = 0.0;
  double row_max[2] = {NEG_INF, NEG_INF}, row_sum[2] = {0.0, 0.0};
  const int key_end = causal ? min(S, q0 + QT) : S;  // later keys are masked for every query of the block

  unsigned kr[PER / 2], vr[PER / 2];  // the next tile on its way from global memory: two bf16 per register
  auto fetch = [&](int k0) {
#pragma unroll
    for (int i = 0; i < PER / 2; ++i) {
      const int e = 2 * (t + i * THREADS), r = e / DK, c = e % DK;  // columns c, c + 1 (zeros past S and D)
      const long long at = base + (long long)(k0 + r) * D + c;
      const bool in0 = k0 + r < S && c < D, in1 = k0 + r < S && c + 1 < D;
      kr[i] = (in0 ? K[at] : 0u) | (in1 ? (unsigned)K[at + 1] << 16 : 0u);
      vr[i] = (in0 ? V[at] : 0u) | (in1 ? (unsigned)V[at + 1] << 16 : 0u);
    }
  };
  fetch(0);
  for (int k0 = 0; k0 < key_end; k0 += KT) {
    __syncthreads();  // the previous tile is no longer read (and, the first time, Q is in shared memory)
#pragma unroll
    for (int i = 0; i < PER / 2; ++i) {
      const int e = 2 * (t + i * THREADS), r = e / DK, c = e % DK;
      ks[r][c] = bf16(kr[i] & 0xffffu);
      ks[r][c + 1] = bf16(kr[i] >> 16);
      vs[r][c] = bf16(vr[i] & 0xffffu);
      vs[r][c + 1] = bf16(vr[i] >> 16);
    }
    __syncthreads();
    if (k0 + KT < key_end) fetch(k0 + KT);

    double s[KT / 8][4];  // scores of this warp's 16 queries x the tile's keys
#pragma unroll
    for (int nb = 0; nb < KT / 8; ++nb) s[nb][0] = s[nb][1] = s[nb][2] = s[nb][3] = 0.0;
#pragma unroll
    for (int kk = 0; kk < DK / 4; ++kk) {
      const double a0 = qs[r0][4 * kk + q], a1 = qs[r0 + 8][4 * kk + q];
#pragma unroll
      for (int nb = 0; nb < KT / 8; ++nb) dmma(s[nb], a0, a1, ks[8 * nb + g][4 * kk + q]);
    }

    double rescale[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {  // the lane's two rows: C fragment entries 2h and 2h + 1
      double tile_max = NEG_INF;
#pragma unroll
      for (int nb = 0; nb < KT / 8; ++nb)
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          const int key = k0 + 8 * nb + 2 * q + i;
          double& v = s[nb][2 * h + i];
          v = key < S && !(causal && key > row[h]) ? v * scale : NEG_INF;
          tile_max = fmax(tile_max, v);
        }
      tile_max = fmax(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 1));  // the 4 lanes of the row
      tile_max = fmax(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 2));
      const double m = fmax(row_max[h], tile_max);
      rescale[h] = m == NEG_INF ? 1.0 : exp(row_max[h] - m);  // 0 on the row's first keys (row_max -inf)
      double sum = 0.0;
#pragma unroll
      for (int nb = 0; nb < KT / 8; ++nb)
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          const double e = m == NEG_INF ? 0.0 : exp(s[nb][2 * h + i] - m);
          ps[warp][g + 8 * h][8 * nb + 2 * q + i] = e;
          sum += e;
        }
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      row_sum[h] = row_sum[h] * rescale[h] + sum;
      row_max[h] = m;
    }
    __syncwarp();  // the warp's probabilities are in ps
#pragma unroll
    for (int nb = 0; nb < DK / 8; ++nb) {
      o[nb][0] *= rescale[0];
      o[nb][1] *= rescale[0];
      o[nb][2] *= rescale[1];
      o[nb][3] *= rescale[1];
    }
#pragma unroll
    for (int kk = 0; kk < KT / 4; ++kk) {
      const double a0 = ps[warp][g][4 * kk + q], a1 = ps[warp][g + 8][4 * kk + q];
#pragma unroll
      for (int nb = 0; nb < DK / 8; ++nb) dmma(o[nb], a0, a1, vs[4 * kk + q][8 * nb + g]);
    }
    __syncwarp();  // ps is read before the next tile overwrites it
  }
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int nb = 0; nb < DK / 8; ++nb)
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const int d = 8 * nb + 2 * q + i;
        if (row[h] < S && d < D) O[base + (long long)row[h] * D + d] = o[nb][2 * h + i] / row_sum[h];
      }
}

extern "C" __global__ void __launch_bounds__(THREADS, 2) attention_fwd_ref(const unsigned short* __restrict__ Q, const unsigned short* __restrict__ K,
                                             const unsigned short* __restrict__ V, double* __restrict__ O, int S,
                                             int D, int causal, double scale) {
  extern __shared__ double smem[];  // the launch's smem
  if (D > DMAX) {
    const long long base = (long long)blockIdx.y * S * D;
    for (int e = threadIdx.x; e < QT * D; e += THREADS)
      if (blockIdx.x * QT + e / D < S) O[base + (long long)blockIdx.x * QT * D + e] = __longlong_as_double(0x7ff8000000000000ll);
    return;
  }
  if (D <= 64)
    attend<64>(Q, K, V, O, S, D, causal, scale, smem);
  else
    attend<DMAX>(Q, K, V, O, S, D, causal, scale, smem);
}
