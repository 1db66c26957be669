// The tree width df is found by a loop whose test reads the thread index (each thread a different df), then a
// loop of df steps with a barrier in each: threads of one block run different numbers of barriers.
// expect: barrier.divergent
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
    if (tx >= i) df = i;
  }
  for (i = 2; i <= df; i = 2 * i) {
    if ((tx + 1) % i == 0) s[tx] = 2.f * s[tx];
    __syncthreads();
  }
  if (tx == 0) sums[blockIdx.x * 512] = s[0] + nf;
}
