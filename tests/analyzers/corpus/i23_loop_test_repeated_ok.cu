// Per-warp values staged in shared memory once per column, for a column count given as a template argument the
// analysis is not told: the barrier that ends each pass sits under the loop's own test (`if (j < ncols)`), which
// holds in every pass (one unknown `ncols`, the same at both uses), so the next pass's stores come after it.
// expect: none
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
    if (j < ncols) __syncthreads();
  }
}
