// Double-buffered tile loads with cp.async (Ampere); every read waits for its group.
// expect: none
// kopt: launch gemm_cp_async grid=(cdiv(N, 32), cdiv(M, 32)) block=(32, 8, 1) args=(A, B, C, M, N, K)
#include <cuda_runtime.h>

__device__ __forceinline__ void cp_async4(void* smem, const void* gmem) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::); }

__global__ void gemm_cp_async(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[2][32][33];
  __shared__ float Bs[2][32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  int ntiles = K / 32;
  for (int r = ty; r < 32; r += 8) {
    cp_async4(&As[0][r][tx], &A[(row0 + r) * K + tx]);
    cp_async4(&Bs[0][r][tx], &B[r * N + col0 + tx]);
  }
  cp_async_commit();
  for (int t = 0; t < ntiles; ++t) {
    int cur = t & 1;
    cp_async_wait_all();
    __syncthreads();
    if (t + 1 < ntiles) {
      for (int r = ty; r < 32; r += 8) {
        cp_async4(&As[cur ^ 1][r][tx], &A[(row0 + r) * K + (t + 1) * 32 + tx]);
        cp_async4(&Bs[cur ^ 1][r][tx], &B[((t + 1) * 32 + r) * N + col0 + tx]);
      }
    }
    cp_async_commit();
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 32; ++k) acc[i] += As[cur][ty + 8 * i][k] * Bs[cur][k][tx];
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    if (row0 + ty + 8 * i < M && col0 + tx < N) C[(row0 + ty + 8 * i) * N + col0 + tx] = acc[i];
}
