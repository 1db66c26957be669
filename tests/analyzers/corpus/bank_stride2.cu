// Each thread owns two interleaved slots: lanes two words apart, 2-way conflicts.
// expect: bank-conflict(2)
// kopt: launch complex_mag grid=(cdiv(n, 128)) block=(128, 1, 1) args=(z, mag, n)
__global__ void complex_mag(const float2* z, float* mag, int n) {
  __shared__ float re_im[256];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  float2 v = i < n ? z[i] : make_float2(0.f, 0.f);
  re_im[2 * t] = v.x;
  re_im[2 * t + 1] = v.y;
  __syncthreads();
  if (i < n) mag[i] = sqrtf(re_im[2 * t] * re_im[2 * t] + re_im[2 * t + 1] * re_im[2 * t + 1]);
}
