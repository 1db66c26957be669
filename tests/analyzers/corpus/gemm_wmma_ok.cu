// WMMA (tensor core) GEMM: one warp per 16x16 output tile, operands staged through shared memory.
// expect: none
// kopt: launch wmma_gemm grid=(cdiv(N, 16), cdiv(M, 16)) block=(32, 1, 1) args=(A, B, C, M, N, K)
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

__global__ void wmma_gemm(const half* A, const half* B, float* C, int M, int N, int K) {
  __shared__ half a_tile[16 * 16];
  __shared__ half b_tile[16 * 16];
  int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  int lane = threadIdx.x;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int e = lane; e < 256; e += 32) {
      int r = e / 16, c = e % 16;
      a_tile[e] = A[(m0 + r) * K + k0 + c];
      b_tile[e] = B[(k0 + r) * N + n0 + c];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::load_matrix_sync(a, a_tile, 16);
    wmma::load_matrix_sync(b, b_tile, 16);
    wmma::mma_sync(acc, a, b, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(C + m0 * N + n0, acc, N, wmma::mem_row_major);
}
