// A block reduction written for any block shape (it linearizes threadIdx.x and threadIdx.y) called from a kernel
// whose own code names only threadIdx.x: the kernel is launched 1-D, so the store of thread 0 is one thread's (the
// block, not given, is bounded by the 512 slots the reduction fills: a note).
// expect: launch.inferred-block
__device__ float block_sum(float v, float *buf) {
  int tid = threadIdx.x + threadIdx.y * blockDim.x;
  buf[tid] = v;
  __syncthreads();
  for (int s = (blockDim.x * blockDim.y) / 2; s > 0; s >>= 1) {
    if (tid < s) buf[tid] += buf[tid + s];
    __syncthreads();
  }
  float r = buf[0];
  __syncthreads();
  return r;
}
__global__ void norm(const float *x, float *ret, int n) {
  __shared__ float buf[512];
  float v = threadIdx.x < n ? x[threadIdx.x] : 0.f;
  float total = block_sum(v * v, buf);
  if (blockIdx.x == 0 && threadIdx.x == 0) *ret = *ret + total;
}
