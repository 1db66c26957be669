// The tree reduction with its barrier moved inside the active-thread test.
// expect: barrier.divergent
// kopt: launch reduce grid=(32) block=(512) args=(x, out)
__global__ void reduce(const float *x, float *out) {
  __shared__ float s[512];
  s[threadIdx.x] = x[blockIdx.x * 512 + threadIdx.x];
  __syncthreads();
  for (unsigned w = 256; w > 0; w /= 2) {
    if (threadIdx.x < w) {
      s[threadIdx.x] += s[threadIdx.x + w];
      __syncthreads();
    }
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
