// softmax_rows's reference on the GPU, in float64 (the check's reference_cuda; reference.py defines it): one block
// per row, the row's max, the sum of exp(x - max), then exp(x - max) / sum, as reference.py computes them.
// kopt: launch softmax_rows_ref grid=(rows) block=(256) args=(x, y, rows, cols)
#define THREADS 256

__device__ double block_reduce(double v, double* buf, bool take_max) {
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      const double o = buf[threadIdx.x + stride];
      buf[threadIdx.x] = take_max ? fmax(buf[threadIdx.x], o) : buf[threadIdx.x] + o;
    }
    __syncthreads();
  }
  const double r = buf[0];
  __syncthreads();  // buf is reused by the next reduction
  return r;
}

extern "C" __global__ void softmax_rows_ref(const float* __restrict__ x, double* __restrict__ y, int rows, int cols) {
  __shared__ double buf[THREADS];
  const float* xr = x + (long long)blockIdx.x * cols;
  double* yr = y + (long long)blockIdx.x * cols;
  double m = __longlong_as_double(0xfff0000000000000ll);  // -inf
  for (int c = threadIdx.x; c < cols; c += THREADS) m = fmax(m, (double)xr[c]);
  m = block_reduce(m, buf, true);
  double s = 0.0;
  for (int c = threadIdx.x; c < cols; c += THREADS) s += exp((double)xr[c] - m);
  s = block_reduce(s, buf, false);
  for (int c = threadIdx.x; c < cols; c += THREADS) yr[c] = exp((double)xr[c] - m) / s;
}
