// Each thread also writes its right neighbour's element: threads x and x + 1 of one row store to one element,
// whatever the pitch.
// expect: race.global
// kopt: launch smear grid=(8, 32) block=(32, 8) args=(dst, w, h, pitch)
__global__ void smear(float *dst, int width, int height, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    dst[y * pitch + x] = x;
    dst[y * pitch + x + 1] = y;
  }
}
