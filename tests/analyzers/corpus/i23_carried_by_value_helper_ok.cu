// The tile loop hands its carried range (k_start, k_stop) to a helper by value: the helper cannot change them, so
// they stay the same in every thread, and so does the helper's loop around its barrier.
// expect: none
// kopt: launch tiles grid=(64) block=(128) args=(in, out, 4096)
__device__ void process(const float *in, float *out, int k_start, int k_stop) {
  __shared__ float s[128];
  for (int k = k_start; k < k_stop; ++k) {
    s[threadIdx.x] = in[k * 128 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[k] = s[127];
    __syncthreads();
  }
}

__global__ void tiles(const float *in, float *out, int n) {
  int kbc = blockIdx.x * 64;
  int stop = kbc + 64;
  int k_start = kbc, k_stop = min(kbc + 8, stop);
  while (kbc < stop) {
    process(in, out, k_start, k_stop);
    kbc += 8;
    kbc -= kbc % 8;
    k_start = kbc;
    k_stop = min(kbc + 8, stop);
  }
}
