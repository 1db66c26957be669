// The window of the last pass is 58 threads wide, but the blocks are placed 57 apart: thread 60 of one block and
// thread 3 of the next store the same element.
// expect: race.global
// kopt: launch last_window grid=(16) block=(64) args=(out)
__global__ void last_window(float *out) {
  int t = threadIdx.x;
  bool inside = false;
  for (int i = 0; i < 4; i++) {
    inside = false;
    if (t >= i && t < 64 - i) inside = true;
    __syncthreads();
  }
  if (inside) out[blockIdx.x * 57 + t - 3] = (float)t;
}
