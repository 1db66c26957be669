// Naive sum over dim 1 of a (batch, dim1, dim2) tensor, kept as a size-1 dim: one thread per output element, walking
// dim1 (adjacent threads read adjacent dim2 elements, so every load is coalesced).
// kind: reduction
// kopt: task p_47_Sum_reduction_over_a_dimension
// kopt: tune BLOCK in [256, 128]
// kopt: launch sum_dim1 grid=(cdiv(dim2, BLOCK), batch_size) block=(BLOCK) args=(x, out, batch_size, dim1, dim2)

extern "C" __global__ void sum_dim1(const float* __restrict__ x, float* __restrict__ out, int batch_size, int dim1,
                                    int dim2) {
  int j = blockIdx.x * BLOCK + threadIdx.x;
  int b = blockIdx.y;
  if (j >= dim2) return;
  const float* p = x + (long long)b * dim1 * dim2 + j;
  float s = 0.0f;
  for (int i = 0; i < dim1; ++i) s += p[(long long)i * dim2];
  out[(long long)b * dim2 + j] = s;
}
