// A warp maximum by an xor butterfly with the offsets rising (1, 2, ..., 16) and fmaxf: every lane ends with the
// warp's maximum, and every lane stores it to the warp's element of the output.
// expect: none
// kopt: launch warp_max grid=(64) block=(256) args=(x, out)
__global__ void warp_max(const float *x, float *out) {
  float v = x[blockIdx.x * 256 + threadIdx.x];
  for (int m = 1; m < 32; m <<= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, m));
  out[blockIdx.x * 8 + threadIdx.x / 32] = v;
}
