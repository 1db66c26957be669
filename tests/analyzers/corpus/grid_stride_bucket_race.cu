// Grid-stride accumulation into 64 buckets with a plain +=.
// expect: race.global
// kopt: launch bucket_sum grid=(160) block=(256, 1, 1) args=(x, buckets, n)
__global__ void bucket_sum(const float* __restrict__ x, float* buckets, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    buckets[i % 64] += x[i];
}
