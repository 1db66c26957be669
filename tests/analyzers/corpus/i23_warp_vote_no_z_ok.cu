// One pixel of a 2-D image per thread, with a warp vote over the pixels: the vote groups lanes by their index in
// the block, but the kernel names no threadIdx.z, so its blocks are presumed one thread deep in z (no launch is
// given), as for a kernel without the vote.
// expect: none
__global__ void mask(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  bool on = x < w && y < h && in[y * w + x] > 0.f;
  bool none = __all_sync(0xffffffffu, !on);
  if (x >= w || y >= h) return;
  out[y * w + x] = none ? 0.f : in[y * w + x];
}
