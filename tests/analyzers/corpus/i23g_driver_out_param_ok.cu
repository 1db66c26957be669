// A kernel loaded by name through the driver API (i23g_driver_host.cpp): the function is looked up in a helper
// that hands it back through a pointer, and launched elsewhere with 64 x 2 threads; the 128-element row buffer
// holds the flattened thread index.
// expect: none
extern "C" __global__ void i23g_drv_rows_fits(float *x) {
  __shared__ float row[128];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  row[t] = x[blockIdx.x * 128 + t];
  __syncthreads();
  x[blockIdx.x * 128 + t] = row[127 - t];
}
