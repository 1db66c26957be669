// `uint` (glibc's typedef) used for indices.
// expect: none
// kopt: launch copy grid=(8) block=(256) args=(x, y)
__global__ void copy(const uint *x, uint *y) {
  uint i = blockIdx.x * 256 + threadIdx.x;
  y[i] = x[i];
}
