// Multi-tile TMA loop: thread 0 arms the mbarrier and issues the load, everyone waits on the flipping parity.
// expect: none
// kopt: tensormap tA = A tile(64, 64)
// kopt: launch tma_loop grid=(1) block=(128, 1, 1) args=(tA, out, ntiles)
#include <cuda.h>
#include <cstdint>
__device__ __forceinline__ uint32_t u32(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__global__ void tma_loop(const __grid_constant__ CUtensorMap tA, float* out, int ntiles) {
  __shared__ __align__(128) float tile[64 * 64];
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(u32(&bar)));
  __syncthreads();
  unsigned phase = 0;
  float acc = 0.f;
  for (int k = 0; k < ntiles; ++k) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(u32(&bar)), "r"(16384));
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(u32(tile)), "l"(&tA), "r"(0), "r"(k * 64), "r"(u32(&bar)) : "memory");
    }
    asm volatile("{\n.reg .pred p;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W;\n}\n"
                 ::"r"(u32(&bar)), "r"(phase) : "memory");
    for (int e = threadIdx.x; e < 64 * 64; e += 128) acc += tile[e];
    __syncthreads();
    phase ^= 1;
  }
  out[threadIdx.x] = acc;
}
