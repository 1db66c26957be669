// Grid-stride loop over float4 elements launched with a grid computed at run time: thread t handles t, t + stride,
// ... (stride = gridDim.x * blockDim.x), so no element is touched by two threads.
// expect: none
__global__ void axpy4(float a, const float4 *x, const float4 *y, float4 *z, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const float4 x4 = x[i];
    const float4 y4 = y[i];
    z[i] = make_float4(a * x4.x + y4.x, a * x4.y + y4.y, a * x4.z + y4.z, a * x4.w + y4.w);
  }
}
void run(float4 *x, float4 *y, float4 *z, size_t n, int blocks) {
  axpy4<<<blocks, 256>>>(2.0f, x, y, z, n);
}
