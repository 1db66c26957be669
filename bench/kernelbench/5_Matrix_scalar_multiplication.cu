// Naive matrix-scalar product C = A * s: one thread per element; s is the problem's constant, passed as a scalar.
// kind: elementwise
// kopt: task p_5_Matrix_scalar_multiplication
// kopt: tune BLOCK in [256, 512]
// kopt: launch scale grid=(cdiv(M * N, BLOCK)) block=(BLOCK) args=(A, out, s, M, N)

extern "C" __global__ void scale(const float* __restrict__ A, float* __restrict__ out, float s, int M, int N) {
  long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i < (long long)M * N) out[i] = A[i] * s;
}
