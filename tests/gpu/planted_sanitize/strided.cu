// Profile case: a is read with a stride of 33 floats, so DRAM bytes far exceed the work model (hot line 7).
// kopt: task vector_add
// kopt: launch strided grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
extern "C" __global__ void strided(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c[i] = a[(long long)i * 33 % n] + b[i];
}
