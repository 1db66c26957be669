// Operand tile written by ordinary stores, then consumed by wgmma without fence.proxy.async.
// expect: async.proxy-fence
// kopt: launch wgmma_tile grid=(1) block=(128, 1, 1) args=(A, D)
#include <cuda_fp16.h>
#include <cstdint>

__device__ uint64_t make_desc(const void* smem) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return (uint64_t)((addr & 0x3FFFF) >> 4) | (1ull << 16) | (64ull << 32);
}

__global__ void wgmma_tile(const half* __restrict__ A, float* __restrict__ D) {
  __shared__ __align__(128) half a_s[64 * 16];
  __shared__ __align__(128) half b_s[16 * 64];
  int t = threadIdx.x;
  for (int e = t; e < 64 * 16; e += 128) {
    a_s[e] = A[e];
    b_s[e] = A[1024 + e];
  }
  __syncthreads();
  uint64_t da = make_desc(a_s), db = make_desc(b_s);
  float d0 = 0.f, d1 = 0.f;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1}, %2, %3, 1, 1, 1, 0, 0;"
               : "+f"(d0), "+f"(d1) : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  reinterpret_cast<float2*>(D)[t] = make_float2(d0, d1);
}
