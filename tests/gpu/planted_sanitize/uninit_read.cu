// Planted: reads the output before writing it (initcheck: uninitialized __global__ read, line 6).
// kopt: task vector_add
// kopt: launch uninit_read grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
extern "C" __global__ void uninit_read(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = 0.0f * c[i] + a[i] + b[i];
}
