// Barrier guarded by a kernel parameter (uniform across the grid).
// expect: none
// kopt: launch maybe_shift grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, n, shift)
__global__ void maybe_shift(float* x, int n, int shift) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  s[t] = i < n ? x[i] : 0.f;
  if (shift != 0) {
    __syncthreads();
    float v = s[(t + shift) & 255];
    __syncthreads();
    s[t] = v;
  }
  __syncthreads();
  if (i < n) x[i] = s[t];
}
