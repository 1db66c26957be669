// A relaxation whose loop leaves on its last pass before copying back (`if (i == passes - 1) break;`): every other
// pass copies `next` into `cur` and synchronizes before the next pass reads the neighbours. After the loop only the
// last pass's window (3 < t < 60) stores, and the blocks' windows of 56 threads tile the output.
// expect: none
// kopt: launch relax grid=(32) block=(64) args=(out, in, passes)
#define P 4
__global__ void relax(float *out, const float *in, int passes) {
  __shared__ float cur[64], next[64];
  int t = threadIdx.x;
  cur[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  bool inside;
  for (int i = 0; i < passes; i++) {
    inside = false;
    if (t > i && t < 63 - i) {
      inside = true;
      next[t] = cur[t - 1] + cur[t + 1];
    }
    __syncthreads();
    if (i == passes - 1) break;
    if (inside) cur[t] = next[t];
    __syncthreads();
  }
  bool last;
  for (int i = 0; i < P; i++) {
    last = false;
    if (t > i && t < 63 - i) last = true;
    if (i == P - 1) break;
    __syncthreads();
  }
  if (last) out[blockIdx.x * 56 + t - 4] = cur[t];
}
