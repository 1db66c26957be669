// 64x64 block tile, 4x4 outputs per thread, A stored transposed in shared memory, float4 reads.
// The transposed store of A puts 8 lanes in one bank; the scalar epilogue stores are 16 bytes apart.
// expect: bank-conflict(8), coalescing
// kopt: launch sgemm_4x4 grid=(cdiv(N, 64), cdiv(M, 64)) block=(16, 16, 1) args=(A, B, C, M, N, K)
#define BM 64
#define BN 64
#define BK 8

__global__ void __launch_bounds__(256) sgemm_4x4(const float* __restrict__ A, const float* __restrict__ B,
                                                 float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];
  const int tid = threadIdx.y * 16 + threadIdx.x;
  const int a_row = tid / BK, a_col = tid % BK;   // 64 rows x 8 cols of A
  const int b_row = tid / BN, b_col = tid % BN;   // 4 rows per pass over the 8 x 64 tile of B
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    As[a_col][a_row] = A[(m0 + a_row) * K + k0 + a_col];
    for (int r = b_row; r < BK; r += 256 / BN) Bs[r][b_col] = B[(k0 + r) * N + n0 + b_col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float4 a = *reinterpret_cast<const float4*>(&As[k][threadIdx.y * 4]);
      float4 b = *reinterpret_cast<const float4*>(&Bs[k][threadIdx.x * 4]);
      acc[0][0] += a.x * b.x; acc[0][1] += a.x * b.y; acc[0][2] += a.x * b.z; acc[0][3] += a.x * b.w;
      acc[1][0] += a.y * b.x; acc[1][1] += a.y * b.y; acc[1][2] += a.y * b.z; acc[1][3] += a.y * b.w;
      acc[2][0] += a.z * b.x; acc[2][1] += a.z * b.y; acc[2][2] += a.z * b.z; acc[2][3] += a.z * b.w;
      acc[3][0] += a.w * b.x; acc[3][1] += a.w * b.y; acc[3][2] += a.w * b.z; acc[3][3] += a.w * b.w;
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      int r = m0 + threadIdx.y * 4 + i, c = n0 + threadIdx.x * 4 + j;
      if (r < M && c < N) C[r * N + c] = acc[i][j];
    }
}
