// The partial is stored after the ticket is drawn: the last block can sum before another block's store lands.
// expect: race.global
// kopt: launch total grid=(32) block=(128) args=(x, partial, count, out)
__global__ void total(const float *x, float *partial, unsigned *count, float *out) {
  __shared__ float s[128];
  __shared__ bool last;
  s[threadIdx.x] = x[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  for (int w = 64; w > 0; w >>= 1) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    partial[blockIdx.x] = s[0];
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float t = 0.f;
    for (int b = 0; b < gridDim.x; b++) t += partial[b];
    out[0] = t;
  }
}
