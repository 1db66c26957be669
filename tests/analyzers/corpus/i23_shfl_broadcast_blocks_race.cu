// Lane 0's value broadcast by a shuffle is one value per warp, but every block's first warp stores its own to
// out[0]: warps of two blocks broadcast different values to the same word.
// expect: race.global
// kopt: launch bcast grid=(4) block=(32) args=(x, out)
__global__ void bcast(const float *x, float *out) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  v = __shfl_sync(0xffffffff, v, 0);
  out[0] = v;
}
