// Naive transpose: reads are coalesced, writes stride by `rows`.
// expect: coalescing
// kopt: launch transpose_naive grid=(cdiv(cols, 32), cdiv(rows, 8)) block=(32, 8, 1) args=(in, out, rows, cols)
__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}
