#include <cstdio>
#include <iostream>

template <typename T>
__device__ T scaled(T v, T s) { return v * s; }

template <typename T>
__global__ void scale(const T* x, T* y, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scaled(x[i], s);
}

template <typename T>
void run(const T* d_x, T* d_y, int n) {
  const int block = 128;
  scale<<<(n + block - 1) / block, block>>>(d_x, d_y, T(2), n);
}

int main(int argc, char** argv) {
  int n = 1000;
  if (argc > 1) n = atoi(argv[1]);
  float *d_x, *d_y;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_y, n * sizeof(float));
  run<float>(d_x, d_y, n);
  std::cout << "done" << std::endl;
  return 0;
}
