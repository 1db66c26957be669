// Shared-memory tiled matmul C (M x N) = A (M x K) B (K x N), row-major: TILE x TILE tiles of A and B staged per step.
// kind: matmul
// kopt: task p_2_Standard_matrix_multiplication_
// kopt: tune TILE in [16, 32]
// kopt: launch matmul_tiled grid=(cdiv(N, TILE), cdiv(M, TILE)) block=(TILE, TILE) args=(A, B, out, M, K, N)

extern "C" __global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                                        float* __restrict__ C, int M, int K, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  int row = blockIdx.y * TILE + ty;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[(long long)row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(long long)(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[(long long)row * N + col] = acc;
}
