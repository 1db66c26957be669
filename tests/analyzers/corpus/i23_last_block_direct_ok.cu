// The last-block pattern tested directly in the publishing thread (no shared flag): thread 0 of each block
// stores its partial, fences and takes a ticket; the one with the last ticket sums and resets the counter.
// expect: none
// kopt: launch total grid=(64) block=(64) args=(x, partial, count, out)
__global__ void total(const float *x, float *partial, unsigned *count, float *out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 2.f * x[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicAdd(count, 1);
    if (ticket == gridDim.x - 1) {
      float t = 0.f;
      for (int b = 0; b < gridDim.x; b++) t += partial[b];
      out[0] = t;
      *count = 0;
    }
  }
}
