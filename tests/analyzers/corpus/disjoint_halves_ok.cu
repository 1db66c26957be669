// The two halves of the block work on different arrays; no thread reads another's data, so no barrier is needed.
// expect: none
// kopt: launch split grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, y, n)
__global__ void split(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float lo[128];
  __shared__ float hi[128];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  float v = i < n ? x[i] : 0.f;
  if (t < 128) {
    lo[t] = v * v;
    v = lo[t] + 1.f;
  } else {
    hi[t - 128] = -v;
    v = hi[t - 128] * 2.f;
  }
  if (i < n) y[i] = v;
}
