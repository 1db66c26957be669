// 256-bin histogram of bytes with shared-memory privatization laid out so that shared-memory atomics never conflict
// on a bank. Launch 1 zeroes the global bins (outputs are poisoned before every run). Launch 2 runs a fixed grid:
// each block keeps 32 private copies of the 256 bins, one per lane, as local[bin][lane] (32 words per bin). Lane l
// only ever touches column l, which lives in bank l, so a warp's 32 atomics go to 32 different banks whatever the
// bytes are. (With one 256-bin copy per warp, 32 random bins land ~3.5 to a bank in the worst bank, and the
// H200 measured 120 us at 2^28 bytes (2.2 TB/s), bound by the shared-memory pipe.) Warps of a block
// share the columns, hence atomics; x is read as 16-byte vectors in a grid-stride loop. After a barrier the block
// sums each bin's 32 columns (each thread starting at a different column, so the reads do not conflict either) and
// adds each non-zero bin to the global histogram with one global atomic. The n % 16 leftover bytes go to the first
// threads of the grid.
// kopt: task histogram
// kopt: tune BLOCK in [512, 256, 1024]
// kopt: tune BLOCKS in [528, 264, 1056]
// kopt: launch zero_bins grid=(1) block=(256) args=(hist)
// kopt: launch histogram_smem grid=(min(cdiv(n, BLOCK * 16), BLOCKS)) block=(BLOCK) args=(x, hist, n)

#define BINS 256

extern "C" __global__ void zero_bins(unsigned* __restrict__ hist) { hist[threadIdx.x] = 0u; }

__device__ __forceinline__ void count_word(unsigned* col, unsigned w) {  // col: this lane's column, local[0][lane]
  atomicAdd(&col[(w & 0xffu) * 32], 1u);
  atomicAdd(&col[((w >> 8) & 0xffu) * 32], 1u);
  atomicAdd(&col[((w >> 16) & 0xffu) * 32], 1u);
  atomicAdd(&col[(w >> 24) * 32], 1u);
}

extern "C" __global__ void __launch_bounds__(BLOCK) histogram_smem(const unsigned char* __restrict__ x,
                                                                    unsigned* __restrict__ hist, int n) {
  __shared__ unsigned local[BINS * 32];  // 32 KB: local[bin * 32 + lane]
  for (int i = threadIdx.x; i < BINS * 32; i += BLOCK) local[i] = 0u;
  __syncthreads();

  unsigned* col = local + (threadIdx.x & 31);
  const long long nvec = n / 16;
  const uint4* x16 = reinterpret_cast<const uint4*>(x);
  const long long tid = (long long)blockIdx.x * BLOCK + threadIdx.x;
  for (long long i = tid; i < nvec; i += gridDim.x * blockDim.x) {
    const uint4 v = x16[i];
    count_word(col, v.x);
    count_word(col, v.y);
    count_word(col, v.z);
    count_word(col, v.w);
  }
  if (tid < n - 16 * nvec) atomicAdd(&col[x[16 * nvec + tid] * 32], 1u);  // the n % 16 leftover bytes
  __syncthreads();

  for (int b = threadIdx.x; b < BINS; b += BLOCK) {
    unsigned total = 0;
#pragma unroll 8
    for (int k = 0; k < 32; ++k) total += local[b * 32 + ((k + b) & 31)];  // rotated start: no bank conflicts
    if (total) atomicAdd(&hist[b], total);
  }
}
