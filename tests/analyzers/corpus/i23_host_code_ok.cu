// The same sample-style file with the barrier in place.
// expect: none
// kopt: launch smooth grid=(16) block=(256) args=(x, y)
#include <cstdio>
#include <cublas_v2.h>
#include "helper_cuda.h"
__global__ void smooth(const float *x, float *y) {
  __shared__ float s[256];
  s[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
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
