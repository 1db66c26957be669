// i23_implied_block_lower_guard_ok.cu without its guard: warp 0 stores its sum one row before the array.
// expect: bounds.shared, launch.inferred-block
__global__ void rowsum(const float *x, float *out) {
  __shared__ float part[3][32];
  float v = x[blockIdx.x * 128 + threadIdx.y * 32 + threadIdx.x];
  part[threadIdx.y - 1][threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.y > 0) return;
  for (int w = 0; w < 3; ++w) v += part[w][threadIdx.x];
  out[blockIdx.x * 32 + threadIdx.x] = v;
}
