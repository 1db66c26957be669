// Attention backward's scatter of the q, k and v gradients with the head's offset left at `h`, not `h * d`: the
// heads of one token overlap, so two threads store one slot (GPT-2 small's sizes, which the host passes).
// expect: race.global
__global__ void qkv_scatter(float *dinp, const float *dq, const float *dk, const float *dv, int B, int N, int NH,
                            int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * NH * N * d) return;
  int b = idx / (NH * N * d);
  int rest = idx % (NH * N * d);
  int h = rest / (N * d);
  rest = rest % (N * d);
  int n = rest / d;
  int k = rest % d;
  int at = b * N * 3 * NH * d + n * 3 * NH * d + h + k;
  dinp[at] = dq[idx];
  dinp[at + NH * d] = dk[idx];
  dinp[at + 2 * NH * d] = dv[idx];
}
void run(float *dinp, const float *dq, const float *dk, const float *dv) {
  const int B = 4, N = 64, NH = 12, d = 64;
  qkv_scatter<<<(B * NH * N * d + 255) / 256, 256>>>(dinp, dq, dk, dv, B, N, NH, d);
}
