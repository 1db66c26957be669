// The last-block pattern without __threadfence(): a block's partial may not be visible to the block that draws
// the last ticket, so the last block's read of the partials races with the other blocks' writes.
// expect: race.global
// kopt: launch total grid=(64) block=(256) args=(x, partial, count, out)
__global__ void total(const float *x, float *partial, unsigned *count, float *out) {
  __shared__ float s[256];
  __shared__ bool last;
  s[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (int w = 128; w > 0; w >>= 1) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    unsigned ticket = atomicInc(count, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float t = 0.f;
    for (int b = 0; b < gridDim.x; b++) t += partial[b];
    out[0] = t;
    *count = 0;
  }
}
