// One row of a matrix per row of threads, summed by an xor butterfly over the warp; the first two lanes of a row
// both store the row's sum (an index halved by the work split), which is one value. No launch is given: a kernel
// reducing across whole warps in 2-D blocks is presumed to have rows of whole warps (a row of 3 threads would span
// two warps, whose sums differ).
// expect: none
__global__ void rowsum(const float *x, float *dst) {
  int tid = threadIdx.x / 2;
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  float tmp = x[row * blockDim.x + threadIdx.x];
  for (int mask = 16; mask > 0; mask >>= 1) tmp += __shfl_xor_sync(0xffffffff, tmp, mask, 32);
  if (tid == 0) dst[row] = tmp;
}
