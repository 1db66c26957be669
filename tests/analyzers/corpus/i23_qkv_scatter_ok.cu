// Attention backward's scatter of the q, k and v gradients into one (B, N, 3, NH, d) buffer: each thread's three
// stores go to its own slots of the three NH * d panes. Each pair is too hard for the solver over sizes of any
// sign and is decided with the sizes presumed positive; after the first, the presumed digits decide the rest
// without spending the kernel's solver budget on them again.
// expect: none
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
  int at = b * N * 3 * NH * d + n * 3 * NH * d + h * d + k;
  dinp[at] = dq[idx];
  dinp[at + NH * d] = dk[idx];
  dinp[at + 2 * NH * d] = dv[idx];
}
void run(float *dinp, const float *dq, const float *dk, const float *dv, int B, int N, int NH, int d) {
  int total = B * NH * N * d;
  qkv_scatter<<<(total + 255) / 256, 256>>>(dinp, dq, dk, dv, B, N, NH, d);
}
