// A causal softmax whose loop runs one element past the diagonal, `t2 <= t + 1`: the last row element of
// query row T - 1 is the first of the next head's row 0, which another thread writes (at the sizes the host passes).
// expect: race.global, coalescing
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
    for (int t2 = 0; t2 <= t + 1; t2++) {
      float e = expf(row_in[t2] - top);
      sum += e;
      row[t2] = e;
    }
    for (int t2 = 0; t2 <= t; t2++) row[t2] /= sum;
  }
}
void run(float *att, const float *pre) {
  const int B = 2, T = 64, NH = 4;
  causal_softmax<<<(B * T * NH + 127) / 128, 128>>>(att, pre, B, T, NH);
}
