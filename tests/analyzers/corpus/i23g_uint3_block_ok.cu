// A block given as a uint3 (make_uint3), which a launch takes as a dim3: 32 x 4 threads, one per tile element.
// expect: none
#define I23G_FX 32
#define I23G_FY 4
__global__ void i23g_rows_tile_fits(const float *in, float *out) {
  __shared__ float tile[I23G_FY][32];
  int i = blockIdx.x * I23G_FX * I23G_FY + threadIdx.y * I23G_FX + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[threadIdx.y][threadIdx.x];
}

void i23g_rows_fits(const float *in, float *out, int n) {
  uint3 tids = make_uint3(I23G_FX, I23G_FY, 1);
  i23g_rows_tile_fits<<<n / (I23G_FX * I23G_FY), tids>>>(in, out);
}
