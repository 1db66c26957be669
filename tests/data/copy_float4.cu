extern "C" __global__ void copy4(const float4* __restrict__ a, float4* __restrict__ b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i];
}
