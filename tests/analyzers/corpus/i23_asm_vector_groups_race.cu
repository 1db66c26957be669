// As i23_asm_vector_groups_ok, but the loop steps by 4 halves per thread while each access moves 8: neighbouring
// threads' aligned 16-byte chunks are the same chunk, read and written by both.
// expect: race.global
// kopt: launch scale grid=(64) block=(256) args=(vals, group_size)
#include <cuda_fp16.h>
__device__ __forceinline__ void load16(void *dst, const void *src) {
  uint4 &d = *reinterpret_cast<uint4 *>(dst);
  asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d.x), "=r"(d.y), "=r"(d.z), "=r"(d.w) : "l"(src));
}
__device__ __forceinline__ void store16(void *dst, const void *src) {
  const uint4 &s = *reinterpret_cast<const uint4 *>(src);
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};\n" : : "l"(dst), "r"(s.x), "r"(s.y), "r"(s.z), "r"(s.w));
}
__global__ void scale(__half *vals, int group_size) {
  __half data[8];
  __half *group = vals + blockIdx.x * group_size;
  for (int i = (threadIdx.x / 2) * 8; i < group_size; i += blockDim.x * 4) {
    load16(data, group + i);
    for (int j = 0; j < 8; j++) data[j] = __hmul(data[j], __float2half(0.5f));
    store16(group + i, data);
  }
}
