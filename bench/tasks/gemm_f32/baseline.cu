// Naive tiled SIMT GEMM: a TILE x TILE block computes a TILE x TILE tile of C, one element per thread, staging
// TILE x TILE tiles of A and B through shared memory (zero-filled past the matrix edges).
// kopt: task gemm_f32
// kopt: tune TILE in [16, 32]
// kopt: launch gemm_f32 grid=(cdiv(N, TILE), cdiv(M, TILE)) block=(TILE, TILE) args=(A, B, C, M, N, K)

extern "C" __global__ void gemm_f32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                    int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[(long long)row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(long long)(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[(long long)row * N + col] = acc;
}
