// Naive WMMA GEMM (bf16 x bf16 -> f32 on the tensor cores). A block of WM x WN warps computes a (16*WM) x (16*WN)
// tile of C, one 16x16 WMMA accumulator per warp. Each 16-wide K step stages the A and B tiles through shared
// memory with plain loads, zero-filling past the matrix edges, so any M, N, K works; each warp stores its
// accumulator to shared memory and writes the in-bounds part to C.
// The baseline of gemm_bf16 and of gemm_bf16_aligned (the same product on aligned shapes), so it names no task.
// kopt: tune WM in [2, 4]
// kopt: tune WN in [2, 4]
// kopt: launch gemm_bf16 grid=(cdiv(N, 16 * WN), cdiv(M, 16 * WM)) block=(32 * WM * WN) args=(A, B, C, M, N, K)
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

#define BM (16 * WM)
#define BN (16 * WN)
#define BK 16
#define NTHREADS (32 * WM * WN)

extern "C" __global__ void gemm_bf16(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                                     float* __restrict__ C, int M, int N, int K) {
  // WMMA loads and stores need 256-bit aligned pointers; every warp's sub-tile offset below is a multiple of 32 B.
  __shared__ alignas(32) __nv_bfloat16 As[BM][BK];
  __shared__ alignas(32) __nv_bfloat16 Bs[BK][BN];
  __shared__ alignas(32) float Cs[WM * WN][16 * 16];

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int wm = warp / WN, wn = warp % WN;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const __nv_bfloat16 zero = __float2bfloat16(0.0f);

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += NTHREADS) {
      int r = i / BK, k = i % BK;
      int gr = m0 + r, gk = k0 + k;
      As[r][k] = (gr < M && gk < K) ? A[(long long)gr * K + gk] : zero;
    }
    for (int i = tid; i < BK * BN; i += NTHREADS) {
      int k = i / BN, c = i % BN;
      int gk = k0 + k, gc = n0 + c;
      Bs[k][c] = (gk < K && gc < N) ? B[(long long)gk * N + gc] : zero;
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b;
    wmma::load_matrix_sync(a, &As[wm * 16][0], BK);
    wmma::load_matrix_sync(b, &Bs[0][wn * 16], BN);
    wmma::mma_sync(acc, a, b, acc);
    __syncthreads();
  }

  wmma::store_matrix_sync(&Cs[warp][0], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int i = lane; i < 16 * 16; i += 32) {
    int r = m0 + wm * 16 + i / 16, c = n0 + wn * 16 + i % 16;
    if (r < M && c < N) C[(long long)r * N + c] = Cs[warp][i];
  }
}
