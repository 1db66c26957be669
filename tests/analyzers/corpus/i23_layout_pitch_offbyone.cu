// The guard lets x reach the width (x <= width): with the tightest pitch (pitch == width) the thread at
// x == width of row y stores to the first element of row y + 1, which another thread stores too.
// expect: race.global
// kopt: launch copy2d grid=(8, 32) block=(32, 8) args=(dst, src, w, h, pitch)
__global__ void copy2d(float *dst, const float *src, int width, int height, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= width && y < height) dst[y * pitch + x] = 2.f * src[y * pitch + x];
}
