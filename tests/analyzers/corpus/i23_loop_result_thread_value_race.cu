// As i23_loop_result_same_value_ok, but the sum starts from each thread's own element: the loop's result differs
// between the threads of a row, and they all store it to the row's outputs.
// expect: race.global
// kopt: launch softmax_rows grid=(4, 32) block=(256) args=(in, out, rows, n)
__global__ void softmax_rows(const float *in, float *out, int rows, int n) {
  int row = blockIdx.y;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n || row >= rows) return;
  const float *x = in + row * n;
  float m = x[0];
  for (int i = 1; i < n; i++) m = fmaxf(m, x[i]);
  float sum = x[t];
  for (int i = 0; i < n; i++) sum += expf(x[i] - m);
  for (int i = 0; i < n; i++) out[row * n + i] = expf(x[i] - m) / sum;
}
