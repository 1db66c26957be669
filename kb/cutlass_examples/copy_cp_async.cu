// Double-buffered cp.async pipeline (sm_80+), shown on a flat copy. A fixed grid of blocks walks the tiles of x
// (each tile is BLOCK * UNROLL float4 vectors); a block owns two shared-memory stages. While the tile in one stage
// is written out to y, the next tile is already streaming into the other stage with cp.async.cg (16-byte
// global -> shared copies that bypass the registers and L1; LDGSTS in SASS). Every iteration commits exactly one
// group (possibly empty), so `cp.async.wait_group 1` always means "everything but the newest group has landed".
// The last, partial float4 of x is fetched with src-size < 16 (the rest of the 16 shared bytes is zero-filled) and
// written back element by element. In a pure copy the staging buys nothing over plain 128-bit loads (see
// kb/docs/memory-bound.md); the point is the pattern, which pays off as soon as the staged tile is reused from
// shared memory (stencils, GEMM operands).
// kopt: task copy
// kopt: tune BLOCK in [256, 128, 512]
// kopt: tune UNROLL in [2, 1, 4]
// kopt: tune BLOCKS in [1056, 528, 2112]
// kopt: restrict BLOCK * UNROLL <= 1024
// kopt: launch copy_cp_async grid=(min(cdiv(cdiv(n, 4), BLOCK * UNROLL), BLOCKS)) block=(BLOCK) args=(x, y, n)

#define TILE_VECS (BLOCK * UNROLL)  // float4 vectors per tile (one pipeline stage)

__device__ __forceinline__ void cp_async_16(void* smem_dst, const void* gmem_src, int src_bytes) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
  // src_bytes < 16: only that many bytes are read, the rest of the 16 is zero-filled.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem_src), "r"(src_bytes)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all_but_newest() {
  asm volatile("cp.async.wait_group 1;\n" ::: "memory");
}

// Issue the copies of tile t into stage buf (one group is committed by the caller).
__device__ __forceinline__ void load_tile(float4* buf, const float* __restrict__ x, long long t, int n) {
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {
    const int slot = u * BLOCK + threadIdx.x;
    const long long e = (t * TILE_VECS + slot) * 4;  // first element of this vector
    if (e < n) {
      const long long left = n - e;
      cp_async_16(&buf[slot], x + e, left >= 4 ? 16 : (int)left * 4);
    }
  }
}

extern "C" __global__ void __launch_bounds__(BLOCK) copy_cp_async(const float* __restrict__ x,
                                                                   float* __restrict__ y, int n) {
  __shared__ float4 stage[2][TILE_VECS];
  const long long tiles = ((n + 3LL) / 4 + TILE_VECS - 1) / TILE_VECS;

  long long t = blockIdx.x;  // the grid is never larger than the number of tiles
  load_tile(stage[0], x, t, n);
  cp_async_commit();

  for (int k = 0; t < tiles; ++k, t += gridDim.x) {
    // Prefetch the next tile into the other stage (an empty group past the end keeps the count uniform).
    const long long next = t + gridDim.x;
    if (next < tiles) load_tile(stage[(k + 1) & 1], x, next, n);
    cp_async_commit();
    cp_async_wait_all_but_newest();  // this thread's copies of tile t have landed
    __syncthreads();                 // ... and every other thread's (needed once threads read each other's data)

    const float4* buf = stage[k & 1];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const int slot = u * BLOCK + threadIdx.x;
      const long long e = (t * TILE_VECS + slot) * 4;
      if (e + 4 <= n) {
        *reinterpret_cast<float4*>(y + e) = buf[slot];
      } else if (e < n) {
        const float4 v = buf[slot];
        y[e] = v.x;
        if (e + 1 < n) y[e + 1] = v.y;
        if (e + 2 < n) y[e + 2] = v.z;
      }
    }
    __syncthreads();  // nobody may refill this stage (next iteration's prefetch) before everyone has read it
  }
}
