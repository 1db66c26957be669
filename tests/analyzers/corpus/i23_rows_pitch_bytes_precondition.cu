// A surface written through a byte pitch (4 bytes a pixel), as texture interop kernels do, with the grid sized
// to the width by the caller (no column guard): two threads meet only if a row's pixels reach past the pitch,
// which the kernel does not state.
// expect: race.precondition, coalescing
// kopt: launch fill grid=(4, 4) block=(32, 8) args=(surface, height, pitch)
__global__ void fill(unsigned char *surface, int height, size_t pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= height) return;
  unsigned char *pixel = surface + y * pitch + 4 * x;
  pixel[0] = 255;
  pixel[3] = 0;
}
