// Naive sigmoid: one thread per element.
// kind: elementwise
// kopt: task p_21_Sigmoid
// kopt: tune BLOCK in [256, 128, 512]
// kopt: launch sigmoid grid=(cdiv(batch_size * dim, BLOCK)) block=(BLOCK) args=(x, out, batch_size, dim)

extern "C" __global__ void sigmoid(const float* __restrict__ x, float* __restrict__ out, int batch_size, int dim) {
  long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i < (long long)batch_size * dim) out[i] = 1.0f / (1.0f + expf(-x[i]));
}
