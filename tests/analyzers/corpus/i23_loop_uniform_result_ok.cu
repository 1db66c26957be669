// The last block's width is found by a loop over uniform values (df: the largest power of two not above nf, a
// function of the grid and a parameter), then a tree loop of df steps with a barrier in each: every thread of a
// block runs the same steps.
// expect: none
// kopt: launch reduce grid=(8) block=(512) args=(sums, n)
__global__ void reduce(float *sums, int n) {
  __shared__ float s[512];
  int tx = threadIdx.x;
  int nf = 512 - (gridDim.x * 512 - n);
  int df = 0;
  int i;
  s[tx] = sums[blockIdx.x * 512 + tx];
  __syncthreads();
  for (i = 2; i <= 512; i = 2 * i) {
    if (nf >= i) df = i;
  }
  for (i = 2; i <= df; i = 2 * i) {
    if ((tx + 1) % i == 0 && tx < df) s[tx] = s[tx] + s[tx - i / 2];
    __syncthreads();
  }
  if (tx == 0) sums[blockIdx.x * 512] = s[df > 0 ? df - 1 : 0];
}
