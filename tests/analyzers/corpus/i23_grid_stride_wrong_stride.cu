// The grid-stride loop steps by blockDim.x only: blocks walk over each other's elements.
// expect: race.global
// kopt: launch axpy grid=(40) block=(256) args=(a, x, y, n)
__global__ void axpy(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) y[i] += a * x[i];
}
