// i23_nv_atomic_ticket_ok.cu with its fence at block scope: a block-scoped fence orders nothing for the other
// blocks, so the last block's read of the partials races with their writes.
// expect: race.global
// kopt: launch total grid=(64) block=(256) args=(x, partial, count, out)
__global__ void total(const float *x, float *partial, unsigned *count, float *out) {
  __shared__ float s[256];
  __shared__ bool last;
  s[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (int w = 128; w > 0; w >>= 1) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_BLOCK);
    unsigned t = __nv_atomic_fetch_add(count, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float sum = 0.f;
    for (int b = 0; b < gridDim.x; b++) sum += partial[b];
    *out = sum;
    __nv_atomic_store_n(count, 0u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  }
}
