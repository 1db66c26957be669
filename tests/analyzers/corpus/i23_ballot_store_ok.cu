// The warp's ballot mask is the same in every lane, so all lanes may store it.
// expect: none
// kopt: launch votes grid=(2) block=(128) args=(x, masks)
__global__ void votes(const float *x, unsigned *masks) {
  __shared__ unsigned m[4];
  unsigned b = __ballot_sync(0xffffffffu, x[blockIdx.x * 128 + threadIdx.x] > 0.f);
  m[threadIdx.x / 32] = b;
  __syncthreads();
  if (threadIdx.x < 4) masks[blockIdx.x * 4 + threadIdx.x] = m[threadIdx.x];
}
