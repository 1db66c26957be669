// Naive square matmul C = A B (N x N, row-major): one thread per output element, K loop in global memory.
// kind: matmul
// kopt: task p_1_Square_matrix_multiplication_
// kopt: tune TILE in [16, 32]
// kopt: launch matmul grid=(cdiv(N, TILE), cdiv(N, TILE)) block=(TILE, TILE) args=(A, B, out, N)

extern "C" __global__ void matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                  int N) {
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  if (row >= N || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += A[(long long)row * N + k] * B[(long long)k * N + col];
  C[(long long)row * N + col] = acc;
}
