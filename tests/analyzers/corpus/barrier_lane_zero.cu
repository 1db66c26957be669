// Only lane 0 of each warp calls __syncthreads(); the other lanes read warp_max[0] unsynchronized.
// expect: barrier.divergent, sync.missing
// kopt: launch lane_sync grid=(16) block=(256, 1, 1) args=(x)
__global__ void lane_sync(float* x) {
  __shared__ float warp_max[8];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float v = x[blockIdx.x * 256 + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  if (lane == 0) {
    warp_max[warp] = v;
    __syncthreads();
  }
  x[blockIdx.x * 256 + threadIdx.x] = warp_max[0];
}
