// A launch inside a host function template whose template argument sets both the kernel's tile and the block:
// read once per instantiation the program calls (128 and 256); each block holds one tile.
// expect: none
template <int TILE>
__global__ void i23g_tile_rev_fits(const float *in, float *out) {
  __shared__ float s[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[TILE - 1 - threadIdx.x];
}

template <int TILE>
void i23g_run_rev_fits(const float *in, float *out, int n) {
  i23g_tile_rev_fits<TILE><<<n / TILE, TILE>>>(in, out);
}

void i23g_rev_all_fits(const float *in, float *out, int n) {
  i23g_run_rev_fits<128>(in, out, n);
  i23g_run_rev_fits<256>(in, out, n);
}
