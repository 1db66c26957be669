// No launch line: the host code sizes the grid as width / 16 by height / 16 and passes width to the kernel, so
// x < width for every thread and the unguarded row-major store is one element per thread.
// expect: none
__global__ void fill(float *out, int width, float v) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = v * x + y;
}
void run(float *d, int width, int height) {
  dim3 block(16, 16);
  dim3 grid(width / block.x, height / block.y);
  fill<<<grid, block>>>(d, width, 1.0f);
}
