// Naive ReLU: one thread per element.
// kind: elementwise
// kopt: task p_19_ReLU
// kopt: tune BLOCK in [256, 128, 512]
// kopt: launch relu grid=(cdiv(batch_size * dim, BLOCK)) block=(BLOCK) args=(x, out, batch_size, dim)

extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ out, int batch_size, int dim) {
  long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i < (long long)batch_size * dim) out[i] = fmaxf(x[i], 0.0f);
}
