// Jacobi sweep done in place: neighbours are read while other threads overwrite them.
// expect: race.global
// kopt: launch jacobi_inplace grid=(cdiv(n, 256)) block=(256, 1, 1) args=(a, n)
__global__ void jacobi_inplace(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) a[i] = 0.5f * (a[i - 1] + a[i + 1]);
}
