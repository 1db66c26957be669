// i23_loop_test_repeated_ok.cu with the pass-ending barrier skipped in the first pass (`if (j > 0)`): the second
// pass's stores to buf can overtake the first pass's reads.
// expect: race.shared
// kopt: launch rowsums grid=(1) block=(1024) args=(x, out)
template <int ncols>
__global__ void rowsums(const float *x, float *out) {
  __shared__ float buf[32];
  int tid = threadIdx.x;
  for (int j = 0; j < ncols; ++j) {
    float v = x[j * 1024 + tid];
    if (tid % 32 == 0) buf[tid / 32] = v;
    __syncthreads();
    if (tid < 32) out[j * 32 + tid] = buf[tid];
    if (j > 0) __syncthreads();
  }
}
