// The same rounded-up grid with the x < width && y < height guard: each thread writes its own element.
// expect: none
static int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }
__global__ void fill(float *out, int width, int height, float v) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[y * width + x] = v * x;
}
void run(float *d, int width, int height) {
  dim3 block(16, 16);
  dim3 grid(iDivUp(width, block.x), iDivUp(height, block.y));
  fill<<<grid, block>>>(d, width, height, 2.0f);
}
