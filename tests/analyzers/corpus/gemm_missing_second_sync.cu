// Tiled SGEMM without the barrier at the end of the K loop: the next tile overwrites data still being read.
// expect: race.shared
// kopt: launch sgemm grid=(cdiv(N, 16), cdiv(M, 16)) block=(16, 16, 1) args=(A, B, C, M, N, K)
#define TILE 16

__global__ void sgemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int t = 0; t < K / TILE; ++t) {
    As[ty][tx] = A[row * K + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
