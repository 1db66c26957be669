// Tile copy through shared memory with a TMA load: each block loads one BOX_R x BOX_C box of x with
// cp.async.bulk.tensor (completion tracked by an mbarrier; TMA zero-fills the out-of-bounds part of edge boxes),
// then all threads store the in-bounds part of the box to y with plain, bounds-checked stores.
// kopt: task tma_copy
// kopt: tune BOX_R in [32, 16, 64]
// kopt: tune BOX_C in [64, 32, 128]
// kopt: tune BLOCK in [256, 128, 512]
// kopt: restrict BOX_C * 4 % 16 == 0
// kopt: tensormap tIn = x box=(BOX_R, BOX_C) swizzle=none
// kopt: launch tma_copy grid=(cdiv(cols, BOX_C), cdiv(rows, BOX_R)) block=(BLOCK) args=(tIn, y, rows, cols)

// NVRTC cannot include <cuda.h> (it pulls in stdlib.h); this matches the driver's 128-byte, 64-byte aligned
// CUtensorMap. The runner builds it with cuTensorMapEncodeTiled and passes it by value.
struct alignas(64) CUtensorMap {
  unsigned long long opaque[16];
};

extern "C" __global__ void tma_copy(const __grid_constant__ CUtensorMap tIn, float* __restrict__ y, int rows,
                                    int cols) {
  __shared__ alignas(128) float tile[BOX_R][BOX_C];
  __shared__ alignas(8) unsigned long long bar;

  const int c0 = blockIdx.x * BOX_C;  // TMA coordinates are innermost first: {column, row}
  const int r0 = blockIdx.y * BOX_R;
  const unsigned bar_addr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  const unsigned tile_addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[0][0]));

  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar_addr), "r"(1) : "memory");
    // Make the initialised barrier visible to the async (TMA) proxy.
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();

  if (threadIdx.x == 0) {
    // The transaction count is the full box, out-of-bounds (zero-filled) elements included.
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(bar_addr), "r"((unsigned)(BOX_R * BOX_C * sizeof(float)))
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            tile_addr),
        "l"(reinterpret_cast<unsigned long long>(&tIn)), "r"(c0), "r"(r0), "r"(bar_addr)
        : "memory");
  }

  // Every thread waits for phase 0 of the barrier (the TMA load's completion).
  unsigned done = 0;
  while (!done) {
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "  selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(bar_addr), "r"(0)
        : "memory");
  }

  for (int i = threadIdx.x; i < BOX_R * BOX_C; i += BLOCK) {
    const int r = r0 + i / BOX_C, c = c0 + i % BOX_C;
    if (r < rows && c < cols) y[(long long)r * cols + c] = tile[i / BOX_C][i % BOX_C];
  }
}
