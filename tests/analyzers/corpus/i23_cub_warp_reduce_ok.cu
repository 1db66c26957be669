// A CUB warp reduction; lane 0 of each warp stores the warp's sum.
// expect: none
#include <cub/warp/warp_reduce.cuh>
__global__ void warp_sums(const float *x, float *sums) {
  typedef cub::WarpReduce<float> WarpReduce;
  __shared__ typename WarpReduce::TempStorage temp[8];
  int warp = threadIdx.x / 32;
  float s = WarpReduce(temp[warp]).Sum(x[blockIdx.x * 256 + threadIdx.x]);
  if (threadIdx.x % 32 == 0) sums[blockIdx.x * 8 + warp] = s;
}
int main() {
  float *x, *s;
  warp_sums<<<64, 256>>>(x, s);
}
