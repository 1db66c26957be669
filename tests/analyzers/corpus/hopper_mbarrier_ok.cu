// One TMA load completes phase 0 of the mbarrier and the consumer waits on parity 0.
// expect: none
// kopt: tensormap tA = A tile(64, 64)
// kopt: launch tma_load_once grid=(1) block=(128, 1, 1) args=(tA, out)
#include <cuda.h>
#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_wait(uint64_t* bar, int parity) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      "@!p bra WAIT_%=;\n"
      "}\n" ::"r"(smem_u32(bar)), "r"(parity) : "memory");
}

__global__ void tma_load_once(const __grid_constant__ CUtensorMap tA, float* out) {
  __shared__ __align__(128) float tile[64 * 64];
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(&bar)), "r"(1));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(&bar)), "r"(64 * 64 * 4));
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
        ::"r"(smem_u32(tile)), "l"(&tA), "r"(0), "r"(0), "r"(smem_u32(&bar)) : "memory");
  }
  mbar_wait(&bar, 0);
  for (int e = threadIdx.x; e < 64 * 64; e += 128) out[e] = tile[e];
}
