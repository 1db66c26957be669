// A 3-D surface of slices of rows (byte pitches, 4 bytes a pixel), each thread writing its own pixel of every
// slice; the kernel guards x < width and y < height, so a row covers 4 * width bytes and a slice height rows:
// the pitches are assumed to hold them (pitch >= 4 * width, slicePitch >= height * pitch) and no thread meets
// another.
// expect: coalescing
// kopt: launch fill grid=(4, 4) block=(16, 16) args=(surface, width, height, depth, pitch, slicePitch)
__global__ void fill(unsigned char *surface, int width, int height, int depth, int pitch, int slicePitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  for (int z = 0; z < depth; ++z) {
    unsigned char *pixel = surface + z * slicePitch + y * pitch + 4 * x;
    pixel[0] = 255;
    pixel[3] = 0;
  }
}
