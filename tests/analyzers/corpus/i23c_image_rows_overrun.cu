// The same image kernel guarded with col <= width: the thread at col == width writes the first pixel of the next
// row, which that row's first thread also writes.
// expect: race.global
__global__ void brighten(float *img, int width, int height, float delta) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col <= width && row < height) img[row * width + col] = img[row * width + col] + delta;
}
void run(float *img, int width, int height) {
  dim3 block(32, 8);
  dim3 grid((width + 32) / 32, (height + 7) / 8);
  brighten<<<grid, block>>>(img, width, height, 10.0f);
}
