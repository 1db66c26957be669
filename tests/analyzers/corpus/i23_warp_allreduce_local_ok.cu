// Per-column sums kept in a thread's local array, each reduced across the warp with an xor butterfly and stored
// back in the array; every lane then stores its warp's sum to the warp's slot: one value per warp (the butterfly
// leaves the same sum in every lane), read back from the local element just stored.
// expect: none
// kopt: launch mmv grid=(64) block=(256) args=(x, dst, 4096)
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset, 32);
  return v;
}

__global__ void mmv(const float *x, float *dst, int n) {
  __shared__ float buf[8];
  float sumf[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int tid = threadIdx.x;
  for (int i = tid; i < n; i += 256)
    for (int j = 0; j < 4; ++j) sumf[j] += x[(blockIdx.x * 4 + j) * n + i];
  for (int j = 0; j < 4; ++j) {
    sumf[j] = warp_sum(sumf[j]);
    buf[tid / 32] = sumf[j];
    __syncthreads();
    if (tid == 0) {
      float s = 0.0f;
      for (int w = 0; w < 8; ++w) s += buf[w];
      dst[blockIdx.x * 4 + j] = s;
    }
    __syncthreads();
  }
}
