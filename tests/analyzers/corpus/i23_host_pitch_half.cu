// The host passes half the width as the row pitch: row y + 1 starts inside row y, so two threads store to one
// element.
// expect: race.global
__global__ void scale(float *dst, const float *src, int width, int height, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) dst[y * pitch + x] = 3.f * src[y * width + x];
}
void run(float *dst, const float *src, int w, int h) {
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  scale<<<grid, block>>>(dst, src, w, h, w / 2);
}
