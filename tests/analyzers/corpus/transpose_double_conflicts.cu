// Double-precision tile read by column: 8-byte accesses, 16 lanes per phase, all in one bank pair.
// expect: bank-conflict(16)
// kopt: launch transpose_f64 grid=(cdiv(n, 32), cdiv(n, 32)) block=(32, 32, 1) args=(out, in, n)
__global__ void transpose_f64(double* out, const double* in, int n) {
  __shared__ double tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[(size_t)y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < n && y < n) out[(size_t)y * n + x] = tile[threadIdx.x][threadIdx.y];
}
