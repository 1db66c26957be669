// 32x32 tiled transpose with a padded tile (no bank conflicts on the column read).
// expect: none
// kopt: launch transpose grid=(8, 8) block=(32, 8) args=(in, out)
__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * 256 + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * 256 + x] = tile[threadIdx.x][threadIdx.y + j];
}
