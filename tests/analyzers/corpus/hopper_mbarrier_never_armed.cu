// The producer forgot arrive.expect_tx: the barrier is initialized but nothing ever completes its phase.
// expect: async.mbarrier-phase
// kopt: launch consumer_only grid=(1) block=(128, 1, 1) args=(out)
#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ bool mbar_try_wait(uint32_t bar, uint32_t parity) {
  uint32_t ok;
  asm volatile(
      "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  return ok != 0;
}

__global__ void consumer_only(float* out) {
  __shared__ __align__(8) uint64_t full_bar;
  __shared__ float data[128];
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&full_bar)));
  __syncthreads();
  while (!mbar_try_wait(smem_u32(&full_bar), 0)) {
  }
  out[threadIdx.x] = data[threadIdx.x];
}
