// cp.async tile load that is consumed before any wait: the data may not have landed.
// expect: async.cp-async-wait
// kopt: launch tile_copy_compute grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, y, n)
__device__ __forceinline__ void cp_async_16(void* dst, const void* src) {
  unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src));
}

__global__ void tile_copy_compute(const float4* x, float* y, int n) {
  __shared__ float4 buf[256];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  cp_async_16(&buf[t], &x[i]);
  asm volatile("cp.async.commit_group;");
  __syncthreads();
  float4 v = buf[(t + 1) % 256];
  if (i < n) y[i] = v.x + v.y + v.z + v.w;
}
