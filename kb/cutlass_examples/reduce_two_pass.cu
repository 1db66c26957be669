// Deterministic two-pass sum reduction. Pass 1: a fixed grid (BLOCKS blocks) where every thread accumulates a
// grid-stride slice of x read as float4, the block reduces (warp shuffles -> one value per warp in shared memory
// -> one warp shuffles those) and thread 0 writes partial[blockIdx.x]. Pass 2: one block reduces the partials the
// same way and writes s[0]. No atomics, so the order of the additions and the result are the same on every run; the
// price is a second (tiny) launch (compare reduce_block_atomic.cu).
// kopt: task reduce_sum
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: tune BLOCKS in [1056, 528, 2112]
// kopt: scratch partial f32[min(cdiv(n, BLOCK * 4), BLOCKS)]
// kopt: launch reduce_blocks grid=(min(cdiv(n, BLOCK * 4), BLOCKS)) block=(BLOCK) args=(x, partial, n)
// kopt: launch reduce_partials grid=(1) block=(BLOCK) args=(partial, s, min(cdiv(n, BLOCK * 4), BLOCKS))

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

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_blocks(const float* __restrict__ x,
                                                                   float* __restrict__ partial, int n) {
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
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_partials(const float* __restrict__ partial,
                                                                     float* __restrict__ s, int nparts) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < nparts; i += BLOCK) acc += partial[i];
  const float total = block_sum(acc);
  if (threadIdx.x == 0) s[0] = total;
}
