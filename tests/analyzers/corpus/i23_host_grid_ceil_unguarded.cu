// The host rounds the grid up (iDivUp) but the kernel has no x < width guard: when width is not a multiple of
// 16 the last column of blocks writes past the row into the next one, where other threads write too.
// expect: race.global
static int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }
__global__ void fill(float *out, int width, float v) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = v * x;
}
void run(float *d, int width, int height) {
  dim3 block(16, 16);
  dim3 grid(iDivUp(width, block.x), iDivUp(height, block.y));
  fill<<<grid, block>>>(d, width, 2.0f);
}
