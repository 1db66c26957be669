// kopt: launch vadd grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 2) c[i] = a[i] + b[i];  // writes only the first half
}
