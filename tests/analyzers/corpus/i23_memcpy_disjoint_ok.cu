// Each thread copies 2 floats at a stride of 2: the byte ranges are disjoint.
// expect: none
// kopt: launch pack grid=(1) block=(128) args=(x, y)
__global__ void pack(const float *x, float *y) {
  __shared__ float s[256];
  memcpy(&s[threadIdx.x * 2], &x[threadIdx.x * 2], 2 * sizeof(float));
  __syncthreads();
  y[threadIdx.x] = s[255 - threadIdx.x];
}
