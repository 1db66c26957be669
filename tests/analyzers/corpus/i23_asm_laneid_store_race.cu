// Inline PTX that reads a special register (%laneid) gives each lane its own value: the lanes of a row store
// different values to the row's word.
// expect: race.global
// kopt: launch rows grid=(16) block=(64, 4) args=(x, out)
__device__ __forceinline__ float lane_scaled(float x) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return x * lane;
}
__global__ void rows(const float *x, float *out) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  out[row] = lane_scaled(x[row]);
}
