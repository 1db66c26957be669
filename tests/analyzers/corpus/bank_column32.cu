// Each thread walks its own row of a 32-wide matrix: every lane hits the same bank.
// expect: bank-conflict(32)
// kopt: launch row_sums grid=(cdiv(rows, 32)) block=(32, 1, 1) args=(m, sums, rows)
__global__ void row_sums(const float* __restrict__ m, float* __restrict__ sums, int rows) {
  __shared__ float tile[32][32];
  int lane = threadIdx.x;
  int r0 = blockIdx.x * 32;
  for (int r = 0; r < 32; ++r) tile[r][lane] = m[(r0 + r) * 32 + lane];
  __syncthreads();
  float acc = 0.f;
  for (int c = 0; c < 32; ++c) acc += tile[lane][c];
  sums[r0 + lane] = acc;
}
