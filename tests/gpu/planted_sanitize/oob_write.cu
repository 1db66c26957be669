// Planted: no bounds guard, so the last block writes past c (memcheck: invalid __global__ write, line 7).
// kopt: task vector_add
// kopt: launch oob_write grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
extern "C" __global__ void oob_write(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] + b[i] : 0.0f;
  c[i] = v;
}
