// A 1-D kernel launched on a 2-D grid whose loop also reads blockIdx.y: blocks (x, 0) and (x, 1) store
// different values to C[i].
// expect: race.global
// kopt: launch churn grid=(240, 240) block=(256) args=(A, B, C, n)
__global__ void churn(const float *A, const float *B, float *C, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float v1 = 0, v2 = 0, v3 = 0;
  float a = A[i], b = B[i] + blockIdx.y;
  for (int k = 0; k < 100; k++) {
    v1 = a + b;
    v3 = a - b;
    v1 -= v2;
    v2 = v3 - v1;
    v1 = v2 - v3;
  }
  C[i] = v1;
}
