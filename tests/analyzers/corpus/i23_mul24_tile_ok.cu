// A 16x16 tile indexed with __umul24: each thread writes its own element.
// expect: none
// kopt: launch tile grid=(4, 4) block=(16, 16) args=(x, y, width)
__global__ void tile(const float *x, float *y, int width) {
  __shared__ float s[256];
  unsigned t = __umul24(threadIdx.y, 16u) + threadIdx.x;
  unsigned gx = __umul24(blockIdx.x, 16u) + threadIdx.x, gy = __umul24(blockIdx.y, 16u) + threadIdx.y;
  s[t] = x[gy * 64 + gx];
  __syncthreads();
  y[gy * 64 + gx] = s[255 - t];
}
