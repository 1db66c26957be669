// The row stride passed to __mul24 is 8 for 16-wide rows: rows overlap in the shared tile.
// expect: race.shared
// kopt: launch tile grid=(4, 4) block=(16, 16) args=(x, y)
__global__ void tile(const float *x, float *y) {
  __shared__ float s[256];
  int t = __mul24(threadIdx.y, 8) + threadIdx.x;
  int gx = __mul24(blockIdx.x, 16) + threadIdx.x, gy = __mul24(blockIdx.y, 16) + threadIdx.y;
  s[t] = x[gy * 64 + gx];
  __syncthreads();
  y[gy * 64 + gx] = s[t];
}
