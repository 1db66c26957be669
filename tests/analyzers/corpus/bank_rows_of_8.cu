// Rows of 8 floats, one row per lane: lanes 8 words apart share 4 banks (8-way).
// expect: bank-conflict(8)
// kopt: launch small_rows grid=(cdiv(n, 64)) block=(64, 1, 1) args=(x, y, n)
__global__ void small_rows(const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float rows[64][8];
  int t = threadIdx.x;
  for (int k = t; k < 64 * 8; k += 64) rows[k / 8][k % 8] = x[blockIdx.x * 512 + k];
  __syncthreads();
  float s = 0.f;
#pragma unroll
  for (int c = 0; c < 8; ++c) s += rows[t][c];
  int i = blockIdx.x * 64 + t;
  if (i < n) y[i] = s;
}
