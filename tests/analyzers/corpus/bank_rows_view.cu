// The same fragment read through a pointer to unpadded rows (double (*)[128]): the four rows of a half-warp start
// in the same bank (rows 256 words apart), four wavefronts where one would do.
// expect: bank-conflict(4)
// kopt: launch tile_rows_unpadded grid=(cdiv(n, 32)) block=(32, 1, 1) smem=(16384) args=(x, y, n)
#define W 128
__global__ void tile_rows_unpadded(const double* x, double* y, int n) {
  extern __shared__ double smem[];
  double(*rows)[W] = reinterpret_cast<double(*)[W]>(smem);
  const int lane = threadIdx.x, g = lane / 4, q = lane % 4, base = blockIdx.x * 32;
  for (int e = lane; e < 16 * W; e += 32) rows[e / W][e % W] = base + e / W < n ? x[(base + e / W) % n] : 0.0;
  __syncthreads();
  if (base + lane < n) y[base + lane] = rows[q][8 + g];
}
