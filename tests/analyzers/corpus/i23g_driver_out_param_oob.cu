// A kernel loaded by name through the driver API (i23g_driver_host.cpp): the function is looked up in a helper
// that hands it back through a pointer, and launched elsewhere with 64 x 2 threads; the 64-element row buffer
// is indexed by the flattened thread index, past its end for the second row of threads.
// expect: bounds.shared
extern "C" __global__ void i23g_drv_rows(float *x) {
  __shared__ float row[64];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  row[t] = x[blockIdx.x * 128 + t];
  __syncthreads();
  x[blockIdx.x * 128 + t] = row[127 - t];
}
