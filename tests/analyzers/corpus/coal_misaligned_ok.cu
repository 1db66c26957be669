// Shifted by one element: one extra sector per warp, which is fine.
// expect: none
// kopt: launch diff grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, d, n)
__global__ void diff(const float* __restrict__ x, float* __restrict__ d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) d[i] = x[i + 1] - x[i];
}
