// Naive tanh-approximated GELU (the GPT-2 form): one thread per element.
// kind: elementwise
// kopt: task p_88_MinGPTNewGelu
// kopt: tune BLOCK in [256, 128, 512]
// kopt: launch new_gelu grid=(cdiv(batch_size * dim, BLOCK)) block=(BLOCK) args=(x, out, batch_size, dim)

extern "C" __global__ void new_gelu(const float* __restrict__ x, float* __restrict__ out, int batch_size, int dim) {
  long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i >= (long long)batch_size * dim) return;
  float v = x[i];
  const float k = 0.7978845608028654f;  // sqrt(2 / pi)
  out[i] = 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
}
