// A block given as a uint3 (make_uint3), which a launch takes as a dim3: 64 x 4 threads, one row of threads per
// tile row, but the tile is only 32 columns wide: past its end, and threads 32-63 of a row write the next row's
// elements that row's threads 0-31 write.
// expect: bounds.shared, race.shared
#define I23G_TX 64
#define I23G_TY 4
__global__ void i23g_rows_tile(const float *in, float *out) {
  __shared__ float tile[I23G_TY][32];
  int i = blockIdx.x * I23G_TX * I23G_TY + threadIdx.y * I23G_TX + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[threadIdx.y][threadIdx.x];
}

void i23g_rows(const float *in, float *out, int n) {
  uint3 tids = make_uint3(I23G_TX, I23G_TY, 1);
  i23g_rows_tile<<<n / (I23G_TX * I23G_TY), tids>>>(in, out);
}
