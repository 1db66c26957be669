// The lane read from the %laneid special register is the thread's index in its warp: only lane 0 of each warp
// stores its warp's partial sum, one slot per warp.
// expect: none
__device__ __forceinline__ int lane_id() {
  int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
__global__ void block_sum(const float *x, float *out) {
  __shared__ float partial[32];
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (lane_id() == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < blockDim.x / 32; ++w) s += partial[w];
    out[blockIdx.x] = s;
  }
}
