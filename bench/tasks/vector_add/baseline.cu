// Naive vector add: one thread per element.
// kopt: task vector_add
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: launch vector_add grid=(cdiv(n, BLOCK)) block=(BLOCK) args=(a, b, c, n)

extern "C" __global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
