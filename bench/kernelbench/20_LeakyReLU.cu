// Naive LeakyReLU (the problem's default negative slope, 0.01): one thread per element.
// kind: elementwise
// kopt: task p_20_LeakyReLU
// kopt: tune BLOCK in [256, 128, 512]
// kopt: launch leaky_relu grid=(cdiv(batch_size * dim, BLOCK)) block=(BLOCK) args=(x, out, batch_size, dim)

extern "C" __global__ void leaky_relu(const float* __restrict__ x, float* __restrict__ out, int batch_size, int dim) {
  long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i >= (long long)batch_size * dim) return;
  float v = x[i];
  out[i] = v > 0.0f ? v : 0.01f * v;
}
