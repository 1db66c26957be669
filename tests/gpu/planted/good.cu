// kopt: tune BLOCK in [256, 512]
// kopt: launch vadd grid=(cdiv(n, BLOCK)) block=(BLOCK) args=(a, b, c, n)
extern "C" __global__ void vadd(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
