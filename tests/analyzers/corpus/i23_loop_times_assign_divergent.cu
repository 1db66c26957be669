// The same tree reduction with its barrier moved under the thread-dependent test: only the threads that add at a
// step reach it.
// expect: barrier.divergent
// kopt: launch reduce grid=(64) block=(512) args=(out, in)
__global__ void reduce(float *out, const float *in) {
  __shared__ float s[512];
  int tx = threadIdx.x;
  int i;
  s[tx] = in[blockIdx.x * 512 + tx];
  __syncthreads();
  for (i = 2; i <= 512; i = 2 * i) {
    if ((tx + 1) % i == 0) {
      s[tx] = s[tx] + s[tx - i / 2];
      __syncthreads();
    }
  }
  if (tx == 511) out[blockIdx.x] = s[tx];
}
