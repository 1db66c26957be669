// No launch annotation: __launch_bounds__(512) allows blocks twice the size of the buffer.
// expect: bounds.shared
__global__ void __launch_bounds__(512) square_smem(float* x, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] * x[i] : 0.f;
  __syncthreads();
  if (i < n) x[i] = s[t];
}
