// A tree reduction whose step is written `i = 2 * i` (the counter on the right of the product): the trip count is
// the same for every thread, so the barrier in the loop is reached by all of them, and each step reads the
// partner's partial sum written before the previous barrier.
// expect: none
// kopt: launch reduce grid=(64) block=(512) args=(out, in)
__global__ void reduce(float *out, const float *in) {
  __shared__ float s[512];
  int tx = threadIdx.x;
  int i;
  s[tx] = in[blockIdx.x * 512 + tx];
  __syncthreads();
  for (i = 2; i <= 512; i = 2 * i) {
    if ((tx + 1) % i == 0) s[tx] = s[tx] + s[tx - i / 2];
    __syncthreads();
  }
  if (tx == 511) out[blockIdx.x] = s[tx];
}
