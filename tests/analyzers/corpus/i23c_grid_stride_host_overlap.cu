// The float4 grid-stride loop with a stride one block short (blockDim.x instead of gridDim.x * blockDim.x): the
// next block's threads reach the elements this block's threads write in their later iterations.
// expect: race.global
__global__ void axpy4(float a, const float4 *x, float4 *z, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) {
    const float4 x4 = x[i];
    z[i] = make_float4(a * x4.x, a * x4.y, a * x4.z, a * x4.w);
  }
}
void run(float4 *x, float4 *z, size_t n, int blocks) {
  axpy4<<<blocks, 256>>>(2.0f, x, z, n);
}
