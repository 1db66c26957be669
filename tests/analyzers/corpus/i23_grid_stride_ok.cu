// Grid-stride loop: each thread handles elements i, i + stride, ... on its own.
// expect: none
// kopt: launch axpy grid=(40) block=(256) args=(a, x, y, n)
__global__ void axpy(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] += a * x[i];
}
