// kopt: scratch huge f32[1 << 42]
// kopt: launch vadd grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n, huge)
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n, float* huge) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
