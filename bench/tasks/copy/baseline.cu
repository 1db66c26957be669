// Naive copy: one thread per element, 32-bit loads and stores.
// kopt: task copy
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: launch copy grid=(cdiv(n, BLOCK)) block=(BLOCK) args=(x, y, n)

extern "C" __global__ void copy(const float* __restrict__ x, float* __restrict__ y, int n) {
  const long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = x[i];
}
