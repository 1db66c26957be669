// The same relaxation without the barrier after the copy back: the next pass reads a neighbour's `cur` while
// that neighbour may still be writing it; and the blocks' windows of 56 threads are placed 55 apart, so thread 59
// of one block and thread 4 of the next store the same element.
// expect: sync.missing, race.global
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
  }
  bool last;
  for (int i = 0; i < P; i++) {
    last = false;
    if (t > i && t < 63 - i) last = true;
    if (i == P - 1) break;
    __syncthreads();
  }
  if (last) out[blockIdx.x * 55 + t - 4] = cur[t];
}
