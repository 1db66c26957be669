// Naive transpose: one thread per element of x; reads are coalesced, writes are strided by rows.
// kopt: task transpose
// kopt: tune BY in [8, 4, 16, 32]
// kopt: launch transpose grid=(cdiv(cols, 32), cdiv(rows, BY)) block=(32, BY) args=(x, y, rows, cols)

extern "C" __global__ void transpose(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  int c = blockIdx.x * 32 + threadIdx.x;
  int r = blockIdx.y * BY + threadIdx.y;
  if (r < rows && c < cols) y[(long long)c * rows + r] = x[(long long)r * cols + c];
}
