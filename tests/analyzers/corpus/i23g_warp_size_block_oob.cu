// One warp per block, its size read from the device (cudaDeviceGetAttribute(cudaDevAttrWarpSize), 32 on every
// CUDA GPU) into a member set in one method and launched in another: the 16-element buffer is too small.
// expect: bounds.shared
__global__ void i23g_warp_sum(const float *in, float *out) {
  __shared__ float s[16];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncwarp();
  if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[1];
}

class I23gWarpRunner {
  int m_threads;
  void configure(int dev);
  void run(const float *in, float *out, int blocks);
};

void I23gWarpRunner::configure(int dev) {
  int warp = 0;
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev);
  m_threads = warp;
}

void I23gWarpRunner::run(const float *in, float *out, int blocks) {
  i23g_warp_sum<<<blocks, m_threads>>>(in, out);
}
