// Each thread stores its own pixel of a width-wide image; the kernel has no `x < width` guard, so two threads
// meet only if the grid is wider than a row (the caller sizes the grid from width): a race that needs the
// column to leave its row, reported as a precondition note.
// expect: race.precondition
// kopt: launch brighten grid=(4, 4) block=(32, 8) args=(img, src, width)
__global__ void brighten(float *img, const float *src, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  img[y * width + x] = 2.f * src[y * width + x];
}
