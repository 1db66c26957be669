// The pre-Volta "last warp unrolled" reduction: relies on lockstep execution of the warp.
// expect: warp.implicit-sync
// kopt: launch reduce6 grid=(cdiv(n, 512)) block=(256, 1, 1) args=(g_idata, g_odata, n)
#include <cuda_runtime.h>

template <unsigned int blockSize>
__device__ void warpReduce(volatile float* sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

__global__ void reduce6(const float* g_idata, float* g_odata, unsigned int n) {
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (256 * 2) + tid;
  float v = 0.f;
  if (i < n) v += g_idata[i];
  if (i + 256 < n) v += g_idata[i + 256];
  sdata[tid] = v;
  __syncthreads();
  if (tid < 128) sdata[tid] += sdata[tid + 128];
  __syncthreads();
  if (tid < 64) sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32) warpReduce<256>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
