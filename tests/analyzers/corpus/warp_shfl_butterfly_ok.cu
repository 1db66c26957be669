// Butterfly all-reduce with __shfl_xor_sync; every lane ends with the warp maximum.
// expect: none
// kopt: launch row_max grid=(rows) block=(32, 1, 1) args=(x, y, rows, cols)
__global__ void row_max(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  int row = blockIdx.x, lane = threadIdx.x;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, x[row * cols + c]);
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, mask));
  if (lane == 0) y[row] = m;
}
