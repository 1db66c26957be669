// Bias + GELU (tanh form) with a grid-stride loop over the flattened rows x cols matrix: the grid is a fixed
// number of blocks (a few waves: BLOCKS = SMs x blocks per SM; the H200 has 132 SMs), and each thread walks
// i, i + S, i + 2S, ... with S = gridDim.x * BLOCK. The per-element column i % cols is not recomputed with a
// 64-bit remainder: it is computed once, then advanced by S % cols with one conditional subtraction per step.
// Pair with bias_gelu_one_per_thread.cu (one element per thread, grid as large as the matrix).
// kopt: task bias_gelu
// kopt: tune BLOCK in [256, 128, 512]
// kopt: tune BLOCKS in [2112, 1056, 4224, 528]
// kopt: launch bias_gelu_gs grid=(min(cdiv(rows * cols, BLOCK), BLOCKS)) block=(BLOCK) args=(x, bias, y, rows, cols)

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

extern "C" __global__ void __launch_bounds__(BLOCK) bias_gelu_gs(const float* __restrict__ x,
                                                                  const float* __restrict__ bias,
                                                                  float* __restrict__ y, int rows, int cols) {
  const long long total = (long long)rows * cols;
  const long long stride = (long long)gridDim.x * BLOCK;
  long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i >= total) return;
  // Index math done once per thread: the starting column and the column step per iteration.
  int c = (int)(i % cols);
  const int step = (int)(stride % cols);
  for (; i < total; i += gridDim.x * blockDim.x) {  // the stride is small: fits 32 bits
    y[i] = gelu_tanh(x[i] + bias[c]);
    c += step;
    if (c >= cols) c -= cols;
  }
}
