// Permutation scatter: plain stores through an index array (each index is written once by construction).
// expect: none
// kopt: launch permute grid=(cdiv(n, 256)) block=(256, 1, 1) args=(perm, x, y, n)
__global__ void permute(const int* __restrict__ perm, const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[perm[i]] = x[i];
}
