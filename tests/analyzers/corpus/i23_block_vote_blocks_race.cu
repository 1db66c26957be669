// A block vote's count is one value per block, but every block stores its own count to out[0]: two blocks may have
// counted differently, so their stores race.
// expect: race.global
// kopt: launch count_positive grid=(4) block=(128) args=(x, out)
__global__ void count_positive(const float *x, int *out) {
  int n = __syncthreads_count(x[blockIdx.x * blockDim.x + threadIdx.x] > 0.f);
  out[0] = n;
}
