// A causal softmax with one thread per (batch, head, query row): the row's elements up to the diagonal,
// `t2 <= t` with `t < T`, stay inside the thread's own row of T elements. The block size is not known.
// expect: coalescing
__global__ void causal_softmax(float *att, const float *pre, int B, int T, int NH) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * T * NH) {
    int h = idx % NH;
    int t = (idx / NH) % T;
    int b = idx / (NH * T);
    const float *row_in = pre + b * NH * T * T + h * T * T + t * T;
    float *row = att + b * NH * T * T + h * T * T + t * T;
    float top = -1e30f;
    for (int t2 = 0; t2 <= t; t2++) top = fmaxf(top, row_in[t2]);
    float sum = 0.0f;
    for (int t2 = 0; t2 <= t; t2++) {
      float e = expf(row_in[t2] - top);
      sum += e;
      row[t2] = e;
    }
    for (int t2 = 0; t2 <= t; t2++) row[t2] /= sum;
  }
}
