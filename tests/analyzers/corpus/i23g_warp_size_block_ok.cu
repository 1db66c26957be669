// One warp per block, its size read from the device properties (cudaDeviceProp::warpSize, 32 on every CUDA GPU):
// the 32-element buffer holds one element per thread.
// expect: none
__global__ void i23g_warp_sum_fits(const float *in, float *out) {
  __shared__ float s[32];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncwarp();
  if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[31];
}

void i23g_warp_sums(const float *in, float *out, int blocks) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  i23g_warp_sum_fits<<<blocks, prop.warpSize>>>(in, out);
}
