// Sum reduction built only from warp shuffles: no shared memory and no __syncthreads() anywhere.
// Pass 1: a fixed grid (BLOCKS blocks, a few waves) where every thread accumulates a grid-stride slice of x read as
// float4 (128-bit loads), then each warp folds its 32 lane sums with a __shfl_xor_sync butterfly and lane 0 writes
// one partial per warp. Pass 2: a single warp reads all the warp partials (32 at a time, coalesced), folds them the
// same way and lane 0 writes s[0]. The order of the additions is fixed, so the result is deterministic.
// kopt: task reduce_sum
// kopt: tune BLOCK in [256, 128, 512]
// kopt: tune BLOCKS in [1056, 528, 2112]
// kopt: scratch partial f32[min(cdiv(n, BLOCK * 4), BLOCKS) * (BLOCK // 32)]
// kopt: launch reduce_warps grid=(min(cdiv(n, BLOCK * 4), BLOCKS)) block=(BLOCK) args=(x, partial, n)
// kopt: launch reduce_warp_partials grid=(1) block=(32) args=(partial, s, min(cdiv(n, BLOCK * 4), BLOCKS) * (BLOCK // 32))

#define FULL_MASK 0xffffffffu

// Butterfly: after log2(32) = 5 exchanges every lane holds the sum of all 32 lanes.
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(FULL_MASK, v, offset);
  return v;
}

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_warps(const float* __restrict__ x,
                                                                  float* __restrict__ partial, int n) {
  const long long nvec = n / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  const long long tid = (long long)blockIdx.x * BLOCK + threadIdx.x;
  float acc = 0.0f;
  for (long long i = tid; i < nvec; i += gridDim.x * blockDim.x) {
    const float4 v = x4[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  // The n % 4 leftover elements go to the first threads of the grid.
  if (tid < n - 4 * nvec) acc += x[4 * nvec + tid];

  acc = warp_sum(acc);
  if ((threadIdx.x & 31) == 0) partial[tid / 32] = acc;  // tid / 32 = global warp index
}

extern "C" __global__ void __launch_bounds__(32) reduce_warp_partials(const float* __restrict__ partial,
                                                                       float* __restrict__ s, int nparts) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < nparts; i += 32) acc += partial[i];
  acc = warp_sum(acc);
  if (threadIdx.x == 0) s[0] = acc;
}
