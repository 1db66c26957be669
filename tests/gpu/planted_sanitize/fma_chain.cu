// Profile case: 4096 dependent-free FMAs per element: compute-bound.
// kopt: task vector_add
// kopt: launch fma_chain grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
extern "C" __global__ void fma_chain(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x0 = a[i], x1 = b[i], x2 = x0 + 1.0f, x3 = x1 + 1.0f, k = 1.0001f;
  for (int j = 0; j < 1024; ++j) {
    x0 = fmaf(x0, k, 0.5f); x1 = fmaf(x1, k, 0.5f); x2 = fmaf(x2, k, 0.5f); x3 = fmaf(x3, k, 0.5f);
  }
  c[i] = x0 + x1 + x2 + x3;
}
