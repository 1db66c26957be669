// Sum reduction with one atomicAdd per block. The output s is poisoned (NaN) before every run, so a first launch
// of one thread zeroes it; launches on one stream run in order, so the zero is in place before any block adds.
// The reduction launch runs a fixed grid (BLOCKS blocks); each thread accumulates a grid-stride slice read as
// float4, the block reduces with warp shuffles -> one value per warp in shared memory -> one warp shuffles those,
// and thread 0 does atomicAdd(s, block_sum). One pass over x, but the order of the float additions into s depends
// on block scheduling: the result varies in the last bits from run to run (compare reduce_two_pass.cu).
// kopt: task reduce_sum
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: tune BLOCKS in [1056, 528, 2112, 4224]
// kopt: launch zero_sum grid=(1) block=(1) args=(s)
// kopt: launch reduce_atomic grid=(min(cdiv(n, BLOCK * 4), BLOCKS)) block=(BLOCK) args=(x, s, n)

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(FULL_MASK, v, offset);
  return v;
}

// Sum of v over the block; the result is valid in thread 0 only.
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float warp_totals[BLOCK / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < BLOCK / 32 ? warp_totals[lane] : 0.0f;
    v = warp_sum(v);
  }
  return v;
}

extern "C" __global__ void zero_sum(float* __restrict__ s) { s[0] = 0.0f; }

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_atomic(const float* __restrict__ x, float* __restrict__ s,
                                                                   int n) {
  const long long nvec = n / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  const long long tid = (long long)blockIdx.x * BLOCK + threadIdx.x;
  float acc = 0.0f;
  for (long long i = tid; i < nvec; i += gridDim.x * blockDim.x) {
    const float4 v = x4[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  if (tid < n - 4 * nvec) acc += x[4 * nvec + tid];  // the n % 4 leftover elements

  const float total = block_sum(acc);
  if (threadIdx.x == 0) atomicAdd(s, total);
}
