// The kernel lives in a local header; this file only launches it.
#include <cuda_runtime.h>
#include <iostream>
#include "saxpy_kernel.cuh"

int main() {
  const int n = 1 << 16;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  dim3 block(128);
  dim3 grid((n + block.x - 1) / block.x);
  saxpy<<<grid, block>>>(n, 2.0f, x, y);
  cudaDeviceSynchronize();
  std::cout << "ok" << std::endl;
  return 0;
}
