// Every thread stores its own partial, the block synchronizes, then thread 0 fences and takes the ticket: the
// barrier makes the block's stores visible to thread 0, whose fence orders them before its ticket.
// expect: none
// kopt: launch total grid=(16) block=(64) args=(x, partial, count, out)
__global__ void total(const float *x, float *partial, unsigned *count, float *out) {
  __shared__ bool last;
  partial[blockIdx.x * 64 + threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float t = 0.f;
    for (int i = 0; i < gridDim.x * 64; i++) t += partial[i];
    out[0] = t;
    *count = 0;
  }
}
