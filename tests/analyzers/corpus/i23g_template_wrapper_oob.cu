// A launch inside a host function template whose template argument sets both the kernel's tile and the block:
// read once per instantiation the program calls (128 and 256). The wrapper launches twice the tile's threads:
// the tile overflows, and thread t of a block writes the output element thread t - TILE of the next block writes.
// expect: bounds.shared, race.global
template <int TILE>
__global__ void i23g_tile_rev(const float *in, float *out) {
  __shared__ float s[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[TILE - 1 - threadIdx.x];
}

template <int TILE>
void i23g_run_rev(const float *in, float *out, int n) {
  i23g_tile_rev<TILE><<<n / TILE, 2 * TILE>>>(in, out);
}

void i23g_rev_all(const float *in, float *out, int n) {
  i23g_run_rev<128>(in, out, n);
  i23g_run_rev<256>(in, out, n);
}
