// A 2-D image with a run-time width, rows width elements apart, each guarded pixel written by its own thread
// (the index row * width + col is compared digit by digit: col < width by the guard).
// expect: none
__global__ void brighten(float *img, int width, int height, float delta) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height) img[row * width + col] = img[row * width + col] + delta;
}
void run(float *img, int width, int height) {
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  brighten<<<grid, block>>>(img, width, height, 10.0f);
}
