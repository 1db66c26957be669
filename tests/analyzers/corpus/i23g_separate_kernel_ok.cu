// A kernel compiled on its own (this file), launched from i23g_separate_main.cpp, which declares it and does not
// include this file: the block is read from that launch (128 threads), which the tile holds.
// expect: none
__global__ void i23g_sep_tile_copy_fits(const float *in, float *out) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[threadIdx.x];
}
