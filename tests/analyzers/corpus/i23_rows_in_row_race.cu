// Two neighbouring threads store to one column of their row (x / 2): a race whatever the row stride, so it
// keeps its rule (not a precondition note).
// expect: race.global
// kopt: launch halve grid=(4, 4) block=(32, 8) args=(dst, src, pitch, width, height)
__global__ void halve(float *dst, const float *src, int pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) dst[y * pitch + x / 2] = src[y * width + x];
}
