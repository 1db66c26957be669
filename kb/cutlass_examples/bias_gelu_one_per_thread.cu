// Bias + GELU (tanh form), one element per thread on a 2-D grid: blockIdx.y is the row, blockIdx.x * BLOCK +
// threadIdx.x the column. The 2-D grid gives each thread its row and column without any integer division (a flat
// index would need i % cols, a 64-bit remainder per element). The grid is as large as the matrix: cdiv(cols, BLOCK)
// x rows blocks, each thread doing one load of x, one (cached) load of bias, one store. Pair with
// bias_gelu_grid_stride.cu, which launches a few waves and loops.
// Limit: gridDim.y <= 65535, so rows <= 65535 (true for every shape of the task).
// kopt: task bias_gelu
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: launch bias_gelu_1pt grid=(cdiv(cols, BLOCK), rows) block=(BLOCK) args=(x, bias, y, rows, cols)

__device__ __forceinline__ float gelu_tanh(float z) {
  const float k0 = 0.7978845608028654f;  // sqrt(2 / pi)
  const float k1 = 0.044715f;
  const float u = k0 * (z + k1 * z * z * z);
  // 0.5 z (1 + tanh u) = z * sigmoid(2u) = z / (1 + e^(-2u)): one fast exponential (ex2.approx, relative error
  // ~2^-21) and a fast divide instead of the accurate tanhf, well inside the task's f32 tolerance (rtol 1e-4).
  // tanh.approx.f32 alone would not be (relative error ~2^-11). For very negative z the denominator overflows
  // and the result is -0, within atol of the true value (|z| e^(2u) < 1e-30 there).
  return __fdividef(z, 1.0f + __expf(-2.0f * u));
}

extern "C" __global__ void __launch_bounds__(BLOCK) bias_gelu_1pt(const float* __restrict__ x,
                                                                   const float* __restrict__ bias,
                                                                   float* __restrict__ y, int rows, int cols) {
  const int c = blockIdx.x * BLOCK + threadIdx.x;
  const int r = blockIdx.y;
  if (c >= cols || r >= rows) return;
  const long long i = (long long)r * cols + c;
  y[i] = gelu_tanh(x[i] + bias[c]);
}
