// A pitched 2-D copy: rows are `pitch` elements apart and the kernel keeps x below the width. The pitch is a
// parameter nothing fixes; a pitched layout has pitch >= width, which the analyzer assumes (rows never overlap).
// expect: none
// kopt: launch copy2d grid=(8, 32) block=(32, 8) args=(dst, src, w, h, pitch)
__global__ void copy2d(float *dst, const float *src, int width, int height, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) dst[y * pitch + x] = 2.f * src[y * pitch + x];
}
