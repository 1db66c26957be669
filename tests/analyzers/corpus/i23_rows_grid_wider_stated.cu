// The same unguarded row-major store with the stride stated: the grid covers 64 columns of a 48-wide image,
// so the rows overlap at the stated values and the race is reported as such.
// expect: race.global
// kopt: assume width == 48
// kopt: launch brighten grid=(2, 2) block=(32, 8) args=(img, src, width)
__global__ void brighten(float *img, const float *src, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  img[y * width + x] = 2.f * src[y * width + x];
}
