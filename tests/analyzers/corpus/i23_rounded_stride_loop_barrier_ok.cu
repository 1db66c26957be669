// A grid-stride loop with a barrier in it (PyTorch's fused dropout): the bound is the element count rounded up to
// a multiple of the whole grid's stride, so every thread makes the same number of passes and reaches every
// barrier; the guard inside keeps the last pass in bounds.
// expect: none
// kopt: launch scale grid=(512) block=(256, 1, 1) args=(b, a, total)
__global__ void scale(float* b, const float* a, unsigned int total) {
  unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int stride = blockDim.x * gridDim.x * 4;
  unsigned int rounded = ((total - 1) / stride + 1) * stride;
  for (unsigned int li = idx; li < rounded; li += stride) {
    for (int u = 0; u < 4; u++) {
      unsigned int i = li + blockDim.x * gridDim.x * u;
      if (i < total) b[i] = a[i] * 2.0f;
    }
    __syncthreads();
  }
}
