// A helper that synchronizes internally is called from a thread-dependent branch.
// expect: barrier.divergent
// kopt: launch helper_sync grid=(16) block=(256, 1, 1) args=(x, n)
__device__ void stage_and_sync(float* s, const float* x, int t) {
  s[t] = x[t];
  __syncthreads();
}

__global__ void helper_sync(float* x, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  if (blockIdx.x * 256 + t < n) stage_and_sync(s, x + blockIdx.x * 256, t);
  __syncthreads();
  x[blockIdx.x * 256 + t] = s[255 - t];
}
