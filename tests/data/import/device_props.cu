#include <cuda_runtime.h>
__global__ void fill(float* out, int n, float v) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = v;
}
int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int n = 1 << 20;
  float* d_out;
  cudaMalloc(&d_out, n * sizeof(float));
  fill<<<prop.multiProcessorCount * 4, 256>>>(d_out, n, 1.0f);
  return 0;
}
