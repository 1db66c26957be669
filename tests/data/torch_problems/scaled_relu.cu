// kopt: task scaled_relu
// kopt: launch scaled_relu grid=(cdiv(rows * cols, 256)) block=(256) args=(x, out, rows, cols)
extern "C" __global__ void scaled_relu(const float* x, float* out, int rows, int cols) {
  long long i = (long long)blockIdx.x * 256 + threadIdx.x;
  if (i < (long long)rows * cols) out[i] = fmaxf(x[i], 0.0f) * 2.0f;
}
