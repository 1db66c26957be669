// Sixteen threads copy 4 floats each into a 62-float shared array: the last copy runs past its end.
// expect: bounds.shared
// kopt: launch tail grid=(1) block=(16) args=(x, y)
__global__ void tail(const float *x, float *y) {
  __shared__ float s[62];
  memcpy(&s[threadIdx.x * 4], &x[threadIdx.x * 4], 16);
  __syncthreads();
  y[threadIdx.x] = s[threadIdx.x * 3];
}
