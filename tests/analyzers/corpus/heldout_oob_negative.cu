// Backward difference that reads s[t - 1] for thread 0 as well.
// expect: bounds.shared
// kopt: launch back_diff grid=(cdiv(n, 128)) block=(128, 1, 1) args=(x, d, n)
__global__ void back_diff(const float* x, float* d, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  s[t] = i < n ? x[i] : 0.f;
  __syncthreads();
  if (i < n) d[i] = s[t] - s[t - 1];
}
