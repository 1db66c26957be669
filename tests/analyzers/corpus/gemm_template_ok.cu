// Templated tiled GEMM instantiated for a 32x32 tile.
// expect: none
// kopt: launch gemm<32, float> grid=(cdiv(N, 32), cdiv(M, 32)) block=(32, 32, 1) args=(A, B, C, M, N, K)
template <int TILE, typename T>
__global__ void gemm(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K) {
  __shared__ T As[TILE][TILE + 1];
  __shared__ T Bs[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  T acc = 0;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : T(0);
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : T(0);
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < TILE; ++kk) acc += As[ty][kk] * Bs[kk][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
template __global__ void gemm<32, float>(const float*, const float*, float*, int, int, int);
