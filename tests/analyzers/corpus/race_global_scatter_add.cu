// Scatter-add through an index array without atomics: duplicate indices lose updates.
// expect: race.global
// kopt: launch scatter_add grid=(cdiv(n, 256)) block=(256, 1, 1) args=(idx, val, out, n)
__global__ void scatter_add(const int* __restrict__ idx, const float* __restrict__ val, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[idx[i]] += val[i];
}
