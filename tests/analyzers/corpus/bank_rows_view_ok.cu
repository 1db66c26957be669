// Rows of doubles viewed through a pointer to arrays over dynamic shared memory (double (*)[132]): a fragment read
// of 4 rows x 8 columns, rows 132 doubles (8 banks) apart, puts each half-warp in distinct banks; the subscript that
// selects a row is not itself an access.
// expect: none
// kopt: launch tile_rows_padded grid=(cdiv(n, 32)) block=(32, 1, 1) smem=(16896) args=(x, y, n)
#define W 132
__global__ void tile_rows_padded(const double* x, double* y, int n) {
  extern __shared__ double smem[];
  double(*rows)[W] = reinterpret_cast<double(*)[W]>(smem);
  const int lane = threadIdx.x, g = lane / 4, q = lane % 4, base = blockIdx.x * 32;
  for (int e = lane; e < 16 * W; e += 32) rows[e / W][e % W] = base + e / W < n ? x[(base + e / W) % n] : 0.0;
  __syncthreads();
  if (base + lane < n) y[base + lane] = rows[q][8 + g];
}
