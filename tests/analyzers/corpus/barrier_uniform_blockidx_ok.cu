// The branch depends on blockIdx only: all threads of a block agree.
// expect: none
// kopt: launch alt_blocks grid=(cdiv(n, 128)) block=(128, 1, 1) args=(x, y, n)
__global__ void alt_blocks(const float* x, float* y, int n) {
  __shared__ float s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (blockIdx.x % 2 == 0) {
    s[t] = i < n ? x[i] : 0.f;
    __syncthreads();
    if (i < n) y[i] = s[127 - t];
  } else {
    if (i < n) y[i] = x[i];
  }
}
