// The launching function is given the block as a dim3, which may be 2-D: threads (x, 0) and (x, 1) of a block then
// store different values to one element.
// expect: race.global
__global__ void scale_rows2(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * (1.0f + threadIdx.y);
}
void launch_scale2(float *out, const float *in, int n, dim3 threads) {
  scale_rows2<<<(n + threads.x - 1) / threads.x, threads>>>(out, in, n);
}
