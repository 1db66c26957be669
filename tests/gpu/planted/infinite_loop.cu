// kopt: launch vadd grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (;;) asm volatile("nanosleep.u32 1000;");  // never exits
  if (i < n) c[i] = a[i] + b[i];
}
