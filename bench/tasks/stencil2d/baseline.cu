// Naive 5-point Jacobi step: one thread per cell, every neighbour read straight from global memory.
// kopt: task stencil2d
// kopt: tune BY in [8, 4, 16]
// kopt: launch stencil2d grid=(cdiv(W, 32), cdiv(H, BY)) block=(32, BY) args=(x, y, H, W)

extern "C" __global__ void stencil2d(const float* __restrict__ x, float* __restrict__ y, int H, int W) {
  const int j = blockIdx.x * 32 + threadIdx.x;
  const int i = blockIdx.y * BY + threadIdx.y;
  if (i >= H || j >= W) return;
  const long long idx = (long long)i * W + j;
  if (i == 0 || i == H - 1 || j == 0 || j == W - 1) {
    y[idx] = x[idx];
  } else {
    y[idx] = 0.25f * (x[idx - W] + x[idx + W] + x[idx - 1] + x[idx + 1]);
  }
}
