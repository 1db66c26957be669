// Every thread records a pointer into its own part of the buffer in the same word: different addresses, a race.
// expect: race.global
// kopt: launch init grid=(8) block=(128) args=(bufs, a, n)
__global__ void init(float **bufs, float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bufs[0] = a + 4 * i;
}
