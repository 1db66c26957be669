// Warp-level inclusive scan with shuffles; warp totals combined through shared memory.
// expect: none
// kopt: launch block_scan grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, y, n)
#include <cuda_runtime.h>

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

__global__ void block_scan(const int* __restrict__ x, int* __restrict__ y, int n) {
  __shared__ int warp_totals[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = i < n ? x[i] : 0;
  v = warp_inclusive_scan(v, lane);
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < 8 ? warp_totals[lane] : 0;
    t = warp_inclusive_scan(t, lane);
    if (lane < 8) warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (i < n) y[i] = v;
}
