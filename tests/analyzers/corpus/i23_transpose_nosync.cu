// The tiled transpose without the barrier between filling the tile and reading its columns.
// expect: sync.missing
// kopt: launch transpose grid=(8, 8) block=(32, 8) args=(in, out)
__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * 256 + x];
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * 256 + x] = tile[threadIdx.x][threadIdx.y + j];
}
