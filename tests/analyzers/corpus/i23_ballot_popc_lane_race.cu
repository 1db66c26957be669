// Each lane stores its rank among set lanes (different per lane) into the warp's single slot.
// expect: race.shared
// kopt: launch votes grid=(2) block=(128) args=(x, ranks)
__global__ void votes(const float *x, unsigned *ranks) {
  __shared__ unsigned m[4];
  unsigned lane = threadIdx.x % 32;
  unsigned b = __ballot_sync(0xffffffffu, x[blockIdx.x * 128 + threadIdx.x] > 0.f);
  m[threadIdx.x / 32] = __popc(b & ((1u << lane) - 1u));
  __syncthreads();
  if (threadIdx.x < 4) ranks[blockIdx.x * 4 + threadIdx.x] = m[threadIdx.x];
}
