// The block that draws the first ticket (not the last) sums the partials: other blocks may not have
// published theirs yet.
// expect: race.global
// kopt: launch total grid=(64) block=(64) args=(x, partial, count, out)
__global__ void total(const float *x, float *partial, unsigned *count, float *out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = x[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicAdd(count, 1);
    if (ticket == 0) {
      float t = 0.f;
      for (int b = 0; b < gridDim.x; b++) t += partial[b];
      out[0] = t;
    }
  }
}
