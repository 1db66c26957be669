// A memcpy fills the tile and other threads read it without a barrier.
// expect: sync.missing
// kopt: launch rev grid=(1) block=(64) args=(x, y)
__global__ void rev(const float *x, float *y) {
  __shared__ float s[64];
  memcpy(&s[threadIdx.x], &x[threadIdx.x], sizeof(float));
  y[threadIdx.x] = s[63 - threadIdx.x];
}
