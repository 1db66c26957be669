// Both branches contain a barrier, but they are different barriers reached by different threads.
// expect: barrier.divergent
// kopt: launch two_paths grid=(8) block=(128, 1, 1) args=(x)
__global__ void two_paths(float* x) {
  __shared__ float s[128];
  int t = threadIdx.x;
  if (t % 2 == 0) {
    s[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
  } else {
    s[t] = -x[blockIdx.x * 128 + t];
    __syncthreads();
  }
  x[blockIdx.x * 128 + t] = s[127 - t];
}
