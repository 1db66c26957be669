// Gather with a runtime stride: consecutive lanes are `stride` elements apart.
// expect: coalescing
// kopt: launch gather_stride grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, y, n, stride)
__global__ void gather_stride(const float* __restrict__ x, float* __restrict__ y, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(size_t)i * stride];
}
