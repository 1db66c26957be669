// Lane 0's value is broadcast with __shfl_sync and every lane stores it to its warp's slot: one value.
// expect: none
// kopt: launch bcast grid=(4) block=(256) args=(x, y)
__global__ void bcast(const float *x, float *y) {
  __shared__ float lead[8];
  float v = x[blockIdx.x * 256 + threadIdx.x];
  float first = __shfl_sync(0xffffffffu, v, 0);
  lead[threadIdx.x / 32] = first;
  __syncthreads();
  y[blockIdx.x * 256 + threadIdx.x] = v - lead[threadIdx.x / 32];
}
