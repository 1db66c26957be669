// Whole blocks past the end return early; the test is uniform per block.
// expect: none
// kopt: launch tail_blocks grid=(cdiv(n, 256) + 4) block=(256, 1, 1) args=(x, y, n)
__global__ void tail_blocks(const float* x, float* y, int n) {
  __shared__ float s[256];
  if (blockIdx.x * blockDim.x >= n) return;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.f;
  __syncthreads();
  if (i < n) y[i] = s[255 - t];
}
