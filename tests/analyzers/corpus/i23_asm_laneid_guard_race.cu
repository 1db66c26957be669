// Lanes 0 and 1 of each warp both store the warp's partial sum to the warp's one slot (`lane_id() < 2`).
// expect: race.shared
__device__ __forceinline__ int lane_id() {
  int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
__global__ void block_sum(const float *x, float *out) {
  __shared__ float partial[32];
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  if (lane_id() < 2) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < blockDim.x / 32; ++w) s += partial[w];
    out[blockIdx.x] = s;
  }
}
