// The same epilogue with fence.proxy.async between the shared-memory writes and the TMA store.
// expect: none
// kopt: tensormap tC = C tile(64, 64)
// kopt: launch epilogue grid=(cdiv(N, 64), cdiv(M, 64)) block=(128, 1, 1) args=(tC, acc)
#include <cuda.h>
#include <cstdint>

__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* smem, int x, int y) {
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
               :: "l"(map), "r"(s), "r"(x), "r"(y) : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

__global__ void epilogue(const __grid_constant__ CUtensorMap tC, const float* __restrict__ acc) {
  __shared__ __align__(128) float tile[64 * 64];
  int t = threadIdx.x;
  for (int e = t; e < 64 * 64; e += 128) tile[e] = acc[(blockIdx.y * gridDim.x + blockIdx.x) * 4096 + e];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) tma_store_2d(&tC, tile, blockIdx.x * 64, blockIdx.y * 64);
}
