// Any thread that finds a NaN raises the same flag value: concurrent identical stores are benign.
// expect: none
// kopt: launch check_finite grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, flag, n)
__global__ void check_finite(const float* __restrict__ x, int* flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && !isfinite(x[i])) *flag = 1;
}
