// The filter taps are staged in shared memory by the first threads and used by all without a barrier.
// expect: sync.missing
// kopt: launch conv1d grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, w, y, n)
#define TAPS 9
__global__ void conv1d(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int n) {
  __shared__ float taps[TAPS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < TAPS) taps[threadIdx.x] = w[threadIdx.x];
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < TAPS; ++k) {
    int j = i + k - TAPS / 2;
    if (j >= 0 && j < n) acc += taps[k] * x[j];
  }
  if (i < n) y[i] = acc;
}
