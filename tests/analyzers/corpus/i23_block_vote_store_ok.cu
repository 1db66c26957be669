// Every thread of a block stores the block's vote count to the block's own word: one value per word.
// expect: none
// kopt: launch count_positive grid=(4) block=(128) args=(x, out)
__global__ void count_positive(const float *x, int *out) {
  int n = __syncthreads_count(x[blockIdx.x * blockDim.x + threadIdx.x] > 0.f);
  out[blockIdx.x] = n;
}
