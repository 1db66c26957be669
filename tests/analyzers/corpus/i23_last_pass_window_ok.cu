// Each pass clears `inside` and sets it for the threads of a window that shrinks by one thread at each end; after
// the loop it holds the last pass's window (3 <= t < 61), and the blocks' windows of 58 threads tile the output.
// expect: none
// kopt: launch last_window grid=(16) block=(64) args=(out)
__global__ void last_window(float *out) {
  int t = threadIdx.x;
  bool inside = false;
  for (int i = 0; i < 4; i++) {
    inside = false;
    if (t >= i && t < 64 - i) inside = true;
    __syncthreads();
  }
  if (inside) out[blockIdx.x * 58 + t - 3] = (float)t;
}
