// The stored maximum folds in a second carried value, a running maximum that starts from each thread's own
// element: the result depends on the thread through the value it reads, so the row's threads store different
// values.
// expect: race.global
// kopt: launch running_rows grid=(4, 32) block=(256) args=(in, out, rows, n)
__global__ void running_rows(const float *in, float *out, int rows, int n) {
  int row = blockIdx.y;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n || row >= rows) return;
  float mine = in[row * n + t];
  float best = 0.f;
  for (int i = 0; i < n; i++) {
    best = fmaxf(best, mine);
    mine = fmaxf(mine, in[row * n + i]);
  }
  out[row * n] = best * best;
}
