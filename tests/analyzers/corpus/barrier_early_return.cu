// Out-of-range threads return early, then the rest synchronize.
// expect: barrier.divergent
// kopt: launch scale_neighbors grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, y, n)
__global__ void scale_neighbors(const float* x, float* y, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  s[t] = x[i];
  __syncthreads();
  y[i] = s[t] + (t > 0 ? s[t - 1] : 0.f);
}
