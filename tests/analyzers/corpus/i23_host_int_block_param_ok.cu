// The launching function is given the block size as an int: the block is 1-D (blockDim.y == blockDim.z == 1), so the
// threads of a block never share an element through threadIdx.y.
// expect: none
__global__ void scale_rows(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * (1.0f + threadIdx.y);
}
void launch_scale(float *out, const float *in, int n, int threads) {
  scale_rows<<<(n + threads - 1) / threads, threads>>>(out, in, n);
}
