// i23_carried_const_table_ok.cu reading the table at the thread's own index: threads skip different tiles and
// meet different barriers.
// expect: barrier.divergent
// kopt: launch tiles grid=(64) block=(128) args=(bounds, in, out)
__global__ void tiles(const int *bounds, const float *in, float *out) {
  __shared__ float s[128];
  int kbc = blockIdx.x * 64;
  int stop = kbc + 64;
  while (kbc < stop) {
    int len = bounds[kbc / 8 + threadIdx.x % 2];
    if (len == 0) {
      kbc += 8;
      kbc -= kbc % 8;
      continue;
    }
    s[threadIdx.x] = in[kbc * 128 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[kbc] = s[127] * len;
    __syncthreads();
    kbc += 8;
    kbc -= kbc % 8;
  }
}
