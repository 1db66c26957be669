// Warp-per-row matvec where every lane adds its partial product straight into y[row].
// expect: race.global
// kopt: launch matvec grid=(cdiv(rows, 8)) block=(256, 1, 1) args=(A, x, y, rows, cols)
__global__ void matvec(const float* __restrict__ A, const float* __restrict__ x, float* y, int rows, int cols) {
  int row = blockIdx.x * 8 + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  float part = 0.f;
  for (int c = lane; c < cols; c += 32) part += A[row * cols + c] * x[c];
  y[row] += part;
}
