// 256-bin histogram of bytes with shared-memory privatization. Launch 1 zeroes the global bins (outputs are
// poisoned before every run). Launch 2 runs a fixed grid: each block clears COPIES private 256-bin histograms in
// shared memory, each warp counts into copy (warp % COPIES) with shared-memory atomics (ATOMS: fast, and contention
// is limited to the warps sharing a copy), reading x as 16-byte vectors in a grid-stride loop. After a barrier
// the block sums its copies per bin and adds each non-zero bin to the global histogram with one global atomic, so
// global atomic traffic is at most 256 per block instead of one per byte. The n % 16 leftover bytes go to the
// first threads of the grid.
// kopt: task histogram
// kopt: tune BLOCK in [1024, 512, 256]
// kopt: tune COPIES in [1, 2, 4, 8]
// kopt: tune BLOCKS in [528, 264, 1056]
// kopt: restrict COPIES <= BLOCK // 32
// kopt: launch zero_bins grid=(1) block=(256) args=(hist)
// kopt: launch histogram_smem grid=(min(cdiv(n, BLOCK * 16), BLOCKS)) block=(BLOCK) args=(x, hist, n)

#define BINS 256

extern "C" __global__ void zero_bins(unsigned* __restrict__ hist) { hist[threadIdx.x] = 0u; }

__device__ __forceinline__ void count_word(unsigned* h, unsigned w) {
  atomicAdd(&h[w & 0xffu], 1u);
  atomicAdd(&h[(w >> 8) & 0xffu], 1u);
  atomicAdd(&h[(w >> 16) & 0xffu], 1u);
  atomicAdd(&h[w >> 24], 1u);
}

extern "C" __global__ void __launch_bounds__(BLOCK) histogram_smem(const unsigned char* __restrict__ x,
                                                                    unsigned* __restrict__ hist, int n) {
  __shared__ unsigned local[COPIES][BINS];
  for (int i = threadIdx.x; i < COPIES * BINS; i += BLOCK) (&local[0][0])[i] = 0u;
  __syncthreads();

  unsigned* mine = local[(threadIdx.x >> 5) % COPIES];
  const long long nvec = n / 16;
  const uint4* x16 = reinterpret_cast<const uint4*>(x);
  const long long tid = (long long)blockIdx.x * BLOCK + threadIdx.x;
  for (long long i = tid; i < nvec; i += gridDim.x * blockDim.x) {
    const uint4 v = x16[i];
    count_word(mine, v.x);
    count_word(mine, v.y);
    count_word(mine, v.z);
    count_word(mine, v.w);
  }
  if (tid < n - 16 * nvec) atomicAdd(&mine[x[16 * nvec + tid]], 1u);  // the n % 16 leftover bytes
  __syncthreads();

  for (int b = threadIdx.x; b < BINS; b += BLOCK) {
    unsigned total = 0;
#pragma unroll
    for (int k = 0; k < COPIES; ++k) total += local[k][b];
    if (total) atomicAdd(&hist[b], total);
  }
}
