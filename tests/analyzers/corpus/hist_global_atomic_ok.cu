// 256-bin byte histogram straight into global memory with atomics.
// expect: none
// kopt: launch histo grid=(cdiv(n, 256)) block=(256, 1, 1) args=(data, bins, n)
__global__ void histo(const unsigned char* __restrict__ data, unsigned int* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (; i < n; i += stride) atomicAdd(&bins[data[i]], 1u);
}
