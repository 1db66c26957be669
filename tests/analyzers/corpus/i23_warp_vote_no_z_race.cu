// i23_warp_vote_no_z_ok.cu with the row taken from threadIdx.x too: two threads of one row of the block store
// one pixel.
// expect: race.global, coalescing
__global__ void mask(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.x / 2;
  bool on = x < w && y < h && in[y * w + x] > 0.f;
  bool none = __all_sync(0xffffffffu, !on);
  if (x >= w || y >= h) return;
  out[y * w + x / 2] = none ? 0.f : in[y * w + x];
}
