// Odd stride (3 words) between lanes: every lane lands in a different bank.
// expect: none
// kopt: launch rgb_to_gray grid=(cdiv(n, 128)) block=(128, 1, 1) args=(rgb, gray, n)
__global__ void rgb_to_gray(const float* __restrict__ rgb, float* __restrict__ gray, int n) {
  __shared__ float px[128 * 3];
  int t = threadIdx.x;
  int base = blockIdx.x * 128 * 3;
  for (int k = t; k < 128 * 3; k += 128) px[k] = rgb[base + k];
  __syncthreads();
  int i = blockIdx.x * 128 + t;
  if (i < n) gray[i] = 0.299f * px[3 * t] + 0.587f * px[3 * t + 1] + 0.114f * px[3 * t + 2];
}
