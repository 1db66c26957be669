// i23_carried_by_value_helper_ok.cu with a helper that takes the range's start by reference and sets it to the
// thread's parity, which the next pass starts from: the ranges differ between threads, and so do the counts of
// their barriers.
// expect: barrier.divergent
// kopt: launch tiles grid=(64) block=(128) args=(in, out, 4096)
__device__ void process(const float *in, float *out, int &k_start, int k_stop) {
  __shared__ float s[128];
  for (int k = k_start; k < k_stop; ++k) {
    s[threadIdx.x] = in[k * 128 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[k] = s[127];
    __syncthreads();
  }
  k_start = threadIdx.x % 2;
}

__global__ void tiles(const float *in, float *out, int n) {
  int kbc = blockIdx.x * 64;
  int stop = kbc + 64;
  int k_start = kbc, k_stop = min(kbc + 8, stop);
  while (kbc < stop) {
    process(in, out, k_start, k_stop);
    kbc += 8;
    kbc -= kbc % 8;
    k_start += kbc;
    k_stop = min(kbc + 8, stop);
  }
}
