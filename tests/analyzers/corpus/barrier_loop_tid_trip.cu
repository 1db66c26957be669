// Block-stride loop with a barrier inside: threads run different numbers of iterations.
// expect: barrier.divergent
// kopt: launch stride_loop grid=(64) block=(256, 1, 1) args=(x, n)
__global__ void stride_loop(float* x, int n) {
  __shared__ float s[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    s[threadIdx.x] = x[i];
    __syncthreads();
    x[i] = 0.5f * (s[threadIdx.x] + s[(threadIdx.x + 1) % 256]);
    __syncthreads();
  }
}
