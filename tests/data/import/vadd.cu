// Vector addition with its host program, nvcc style.
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <cuda_runtime.h>

#define N (1 << 20)

__global__ void vecAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

static void check(cudaError_t e) {
  if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); exit(1); }
}

int main() {
  std::vector<float> h_a(N, 1.0f), h_b(N, 2.0f), h_c(N);
  float *d_a, *d_b, *d_c;
  check(cudaMalloc(&d_a, N * sizeof(float)));
  check(cudaMalloc(&d_b, N * sizeof(float)));
  check(cudaMalloc(&d_c, N * sizeof(float)));
  cudaMemcpy(d_a, h_a.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, h_b.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  int threads = 256;
  int blocks = (N + threads - 1) / threads;
  vecAdd<<<blocks, threads>>>(d_a, d_b, d_c, N);
  cudaMemcpy(h_c.data(), d_c, N * sizeof(float), cudaMemcpyDeviceToHost);
  printf("c[0] = %f\n", h_c[0]);
  cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
  return 0;
}
