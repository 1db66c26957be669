// Two kernels loaded by name through the driver API (i23g_driver_host.cpp), the one chosen by the same block size
// the launch then uses (`if (bs == 16)` around the lookups): each is analyzed at its own block, which its tile holds.
// expect: none
extern "C" __global__ void i23g_drv_tile16(float *x) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = x[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  x[threadIdx.y * 16 + threadIdx.x] = t[threadIdx.y][threadIdx.x] * 2.0f;
}

extern "C" __global__ void i23g_drv_tile32(float *x) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = x[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  x[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.y][threadIdx.x] * 2.0f;
}
