// The same block reduction, called from a kernel whose own code names threadIdx.y: its blocks may be 2-D, and then
// every thread of column 0 (threadIdx.x == 0, any threadIdx.y) updates *ret.
// expect: race.global, launch.inferred-block
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
  int i = threadIdx.y * 32 + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  float total = block_sum(v * v, buf);
  if (blockIdx.x == 0 && threadIdx.x == 0) *ret = *ret + total;
}
