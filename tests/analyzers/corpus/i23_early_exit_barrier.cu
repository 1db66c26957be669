// Threads past the end of the data return before the block barrier.
// expect: barrier.divergent
// kopt: assume n >= 1
// kopt: launch norm grid=(16) block=(128) args=(x, n)
__global__ void norm(float *x, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = x[i];
  __syncthreads();
  x[i] = s[threadIdx.x] - s[0];
}
