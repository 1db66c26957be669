// i23_warp_allreduce_rows_ok.cu with the two lanes storing different values (the sum scaled by the lane).
// expect: race.global
__global__ void rowsum(const float *x, float *dst) {
  int tid = threadIdx.x / 2;
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  float tmp = x[row * blockDim.x + threadIdx.x];
  for (int mask = 16; mask > 0; mask >>= 1) tmp += __shfl_xor_sync(0xffffffff, tmp, mask, 32);
  if (tid == 0) dst[row] = tmp * threadIdx.x;
}
