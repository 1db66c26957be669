// Iterate until each thread's own value converges, with a barrier inside the data-dependent loop.
// expect: barrier.divergent
// kopt: launch relax grid=(cdiv(n, 128)) block=(128, 1, 1) args=(x, n)
__global__ void relax(float* x, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  s[t] = i < n ? x[i] : 0.f;
  __syncthreads();
  float v = s[t];
  while (fabsf(v) > 1e-3f) {
    v *= 0.5f;
    __syncthreads();
  }
  if (i < n) x[i] = v;
}
