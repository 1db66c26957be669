// A block-wide vote decides whether to run an extra synchronized pass; the vote result is uniform.
// expect: none
// kopt: launch fixup grid=(64) block=(256, 1, 1) args=(x)
__global__ void fixup(float* x) {
  __shared__ float s[256];
  int t = threadIdx.x;
  float v = x[blockIdx.x * 256 + t];
  if (__syncthreads_or(v < 0.f)) {
    s[t] = fabsf(v);
    __syncthreads();
    v = 0.5f * (s[t] + s[255 - t]);
  }
  x[blockIdx.x * 256 + t] = v;
}
