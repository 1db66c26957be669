// 2D elementwise kernel with threadIdx.x along the contiguous dimension.
// expect: none
// kopt: launch add2d grid=(cdiv(cols, 32), cdiv(rows, 8)) block=(32, 8, 1) args=(a, b, c, rows, cols)
__global__ void add2d(const float* a, const float* b, float* c, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    int idx = row * cols + col;
    c[idx] = a[idx] + b[idx];
  }
}
