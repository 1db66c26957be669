// A sample-style file: host code with FILE*, a cuBLAS handle and error-check macros around a kernel that
// reads its neighbour's element with no barrier. The host part is not the analyzer's business.
// expect: sync.missing
// kopt: launch smooth grid=(16) block=(256) args=(x, y)
#include <cstdio>
#include <cublas_v2.h>
#include "helper_cuda.h"
__global__ void smooth(const float *x, float *y) {
  __shared__ float s[256];
  s[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
  y[blockIdx.x * 256 + threadIdx.x] = 0.5f * (s[threadIdx.x] + s[(threadIdx.x + 1) % 256]);
}
int main(int argc, char **argv) {
  FILE *fp = fopen(argv[1], "rb");
  cublasHandle_t handle;
  cublasCreate(&handle);
  float *d = nullptr;
  checkCudaErrors(cudaMalloc(&d, 4096 * sizeof(float)));
  smooth<<<16, 256>>>(d, d);
  fclose(fp);
  return 0;
}
