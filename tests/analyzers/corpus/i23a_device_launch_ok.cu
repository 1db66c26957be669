// Dynamic parallelism: one thread of each parent block launches a child grid on its own slice. The parent's
// accesses and the child's are each race-free; the device-side launch is not a call into the parent.
// expect: none
__global__ void scale_slice(float *x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

__global__ void per_row(float *x, int *done, int rows, int cols, float a) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    done[r] = 1;  // each thread owns its row's flag
    scale_slice<<<(cols + 127) / 128, 128>>>(x + r * cols, cols, a);
  }
}

void run(float *x, int *done, int rows, int cols) { per_row<<<(rows + 63) / 64, 64>>>(x, done, rows, cols, 2.0f); }
