// Every thread of a row's blocks computes the row's maximum and sum by the same loops over one read-only row and
// stores the whole normalized row: the stores collide, but each writes the same value (wasteful, not a race).
// expect: none
// kopt: launch softmax_rows grid=(4, 32) block=(256) args=(in, out, rows, n)
__global__ void softmax_rows(const float *in, float *out, int rows, int n) {
  int row = blockIdx.y;
  if (blockIdx.x * blockDim.x + threadIdx.x >= n || row >= rows) return;
  const float *x = in + row * n;
  float m = x[0];
  for (int i = 1; i < n; i++) m = fmaxf(m, x[i]);
  float sum = 0.f;
  for (int i = 0; i < n; i++) sum += expf(x[i] - m);
  for (int i = 0; i < n; i++) out[row * n + i] = expf(x[i] - m) / sum;
}
