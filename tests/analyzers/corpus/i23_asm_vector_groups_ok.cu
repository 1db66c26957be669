// Each block scales its own group of `group_size` halves with 16-byte PTX vector loads and stores. Block g's
// chunks start at g * group_size; two blocks' chunks could overlap only if group_size were not a multiple of 8,
// and then some vector access would be misaligned (a fault, not a race): a 16-byte access needs a 16-byte aligned
// address.
// expect: none
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
  for (int i = threadIdx.x * 8; i < group_size; i += blockDim.x * 8) {
    load16(data, group + i);
    for (int j = 0; j < 8; j++) data[j] = __hmul(data[j], __float2half(0.5f));
    store16(group + i, data);
  }
}
