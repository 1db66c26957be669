// One thread per matrix row, looping over columns: a warp reads 32 different rows at once.
// expect: coalescing
// kopt: launch row_dot grid=(cdiv(rows, 128)) block=(128, 1, 1) args=(A, v, out, rows, cols)
__global__ void row_dot(const float* __restrict__ A, const float* __restrict__ v, float* __restrict__ out,
                        int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.f;
  for (int c = 0; c < cols; ++c) acc += A[r * cols + c] * v[c];
  out[r] = acc;
}
