// bias_gelu's reference on the GPU, in float64 (the check's reference_cuda; reference.py defines it):
// y = 0.5 z (1 + tanh(sqrt(2 / pi) (z + 0.044715 z^3))), z = x + bias[column], one element per thread.
// kopt: launch bias_gelu_ref grid=(cdiv(rows * cols, 256)) block=(256) args=(x, bias, y, rows, cols)
extern "C" __global__ void bias_gelu_ref(const float* __restrict__ x, const float* __restrict__ bias,
                                         double* __restrict__ y, int rows, int cols) {
  const long long i = blockIdx.x * 256ll + threadIdx.x;
  if (i >= (long long)rows * cols) return;
  const double z = (double)x[i] + (double)bias[i % cols];
  const double t = (z * z * z * 0.044715 + z) * 0.79788456080286535588;  // sqrt(2 / pi)
  y[i] = (tanh(t) + 1.0) * z * 0.5;
}
