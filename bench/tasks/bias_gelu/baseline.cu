// Naive fused bias + GELU (tanh form): one thread per element, accurate tanhf.
// kopt: task bias_gelu
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: launch bias_gelu grid=(cdiv(rows * cols, BLOCK)) block=(BLOCK) args=(x, bias, y, rows, cols)

extern "C" __global__ void bias_gelu(const float* __restrict__ x, const float* __restrict__ bias,
                                     float* __restrict__ y, int rows, int cols) {
  const long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i >= (long long)rows * cols) return;
  const float z = x[i] + bias[i % cols];
  const float k0 = 0.7978845608028654f;  // sqrt(2 / pi)
  const float u = k0 * (z + 0.044715f * z * z * z);
  y[i] = 0.5f * z * (1.0f + tanhf(u));
}
