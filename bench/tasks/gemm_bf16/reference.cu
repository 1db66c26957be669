// gemm_bf16's reference on the GPU, in float64 (the check's reference_cuda; reference.py defines it): C = A @ B over
// the bf16 values, each product exact in float64 and summed in float64. 64 x 64 tiles of C per block of 16 x 16
// threads, 4 x 4 elements per thread, k in steps of 16 through shared memory.
// kopt: launch gemm_bf16_ref grid=(cdiv(N, 64), cdiv(M, 64)) block=(16, 16) args=(A, B, C, M, N, K)
#define TILE 64
#define KSTEP 16

__device__ __forceinline__ double bf16(unsigned short h) { return (double)__uint_as_float((unsigned)h << 16); }

extern "C" __global__ void gemm_bf16_ref(const unsigned short* __restrict__ A, const unsigned short* __restrict__ B,
                                         double* __restrict__ C, int M, int N, int K) {
  __shared__ double As[KSTEP][TILE];  // As[k][m]
  __shared__ double Bs[KSTEP][TILE];  // Bs[k][n]
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
  const int m0 = blockIdx.y * TILE, n0 = blockIdx.x * TILE;
  double acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += KSTEP) {
    for (int e = t; e < TILE * KSTEP; e += 256) {
      const int am = e / KSTEP, ak = e % KSTEP;  // A's tile, k fastest: reads along A's rows
      const int m = m0 + am, k = k0 + ak;
      As[ak][am] = (m < M && k < K) ? bf16(A[(long long)m * K + k]) : 0.0;
      const int bk = e / TILE, bn = e % TILE;  // B's tile, n fastest: reads along B's rows
      const int kk = k0 + bk, n = n0 + bn;
      Bs[bk][bn] = (kk < K && n < N) ? bf16(B[(long long)kk * N + n]) : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < KSTEP; ++k) {
      double a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) { a[i] = As[k][ty + 16 * i]; b[i] = Bs[k][tx + 16 * i]; }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int m = m0 + ty + 16 * i, n = n0 + tx + 16 * j;
      if (m < M && n < N) C[(long long)m * N + n] = acc[i][j];
    }
}
