// 64x64 tile read down a column by a 64x4 block: every lane of a warp lands in the same bank.
// expect: bank-conflict(32)
// kopt: launch t64 grid=(cdiv(n, 64), cdiv(n, 64)) block=(64, 4, 1) args=(in, out, n)
__global__ void t64(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[64][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int j = ty; j < 64; j += 4) {
    int x = blockIdx.x * 64 + tx, y = blockIdx.y * 64 + j;
    tile[j][tx] = (x < n && y < n) ? in[y * n + x] : 0.f;
  }
  __syncthreads();
  for (int j = ty; j < 64; j += 4) {
    int x = blockIdx.y * 64 + tx, y = blockIdx.x * 64 + j;
    if (x < n && y < n) out[y * n + x] = tile[tx][j];
  }
}
