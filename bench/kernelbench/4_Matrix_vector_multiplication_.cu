// Matrix-vector product out (M x 1) = A (M x K) B (K x 1): one block per row, strided partial sums, tree reduction.
// kind: matmul
// kopt: task p_4_Matrix_vector_multiplication_
// kopt: tune BLOCK in [256, 512]
// kopt: launch matvec grid=(M) block=(BLOCK) args=(A, B, out, M, K)

extern "C" __global__ void matvec(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ out,
                                  int M, int K) {
  __shared__ float buf[BLOCK];
  const float* row = A + (long long)blockIdx.x * K;
  float s = 0.0f;
  for (int k = threadIdx.x; k < K; k += BLOCK) s += row[k] * B[k];
  buf[threadIdx.x] = s;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) buf[threadIdx.x] += buf[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}
