// Every thread stores its own partial and fences, but thread 0 takes the ticket with no barrier after the other
// threads' stores: thread 0 can draw the last ticket before thread 5 of its block has stored, so the last block's
// sum races with that store.
// expect: race.global
// kopt: launch total grid=(16) block=(64) args=(x, partial, count, out)
__global__ void total(const float *x, float *partial, unsigned *count, float *out) {
  __shared__ bool last;
  partial[blockIdx.x * 64 + threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
  __threadfence();
  if (threadIdx.x == 0) {
    unsigned ticket = atomicInc(count, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float t = 0.f;
    for (int i = 0; i < gridDim.x * 64; i++) t += partial[i];
    out[0] = t;
  }
}
