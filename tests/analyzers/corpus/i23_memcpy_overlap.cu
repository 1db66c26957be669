// Each thread copies 3 floats into shared memory at a stride of 2: neighbouring copies overlap.
// expect: race.shared
// kopt: launch pack grid=(1) block=(128) args=(x, y)
__global__ void pack(const float *x, float *y) {
  __shared__ float s[260];
  memcpy(&s[threadIdx.x * 2], &x[threadIdx.x * 3], 3 * sizeof(float));
  __syncthreads();
  y[threadIdx.x] = s[threadIdx.x];
}
