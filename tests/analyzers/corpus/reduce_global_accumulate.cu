// One thread per block adds its block's sum into the global total without an atomic.
// expect: race.global
// kopt: launch sum_into grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, total, n)
#define THREADS 256
__global__ void sum_into(const float* __restrict__ x, float* total, int n) {
  __shared__ float s[THREADS];
  int t = threadIdx.x;
  int i = blockIdx.x * THREADS + t;
  s[t] = i < n ? x[i] : 0.f;
  __syncthreads();
  for (int w = THREADS / 2; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) *total += s[0];
}
