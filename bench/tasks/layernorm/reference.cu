// layernorm's reference on the GPU, in float64 (the check's reference_cuda; reference.py defines it): one block per
// row; mean, variance of the centred row, then (x - mean) / sqrt(var + eps) * weight + bias, as reference.py does.
// kopt: launch layernorm_ref grid=(rows) block=(256) args=(x, weight, bias, y, rows, cols, eps)
#define THREADS 256

__device__ __forceinline__ double bf16(unsigned short h) { return (double)__uint_as_float((unsigned)h << 16); }

__device__ double block_sum(double v, double* buf) {
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) buf[threadIdx.x] += buf[threadIdx.x + stride];
    __syncthreads();
  }
  const double r = buf[0];
  __syncthreads();  // buf is reused by the next reduction
  return r;
}

extern "C" __global__ void layernorm_ref(const unsigned short* __restrict__ x, const unsigned short* __restrict__ weight,
                                         const unsigned short* __restrict__ bias, double* __restrict__ y, int rows,
                                         int cols, float eps) {
  __shared__ double buf[THREADS];
  const unsigned short* xr = x + (long long)blockIdx.x * cols;
  double* yr = y + (long long)blockIdx.x * cols;
  double s = 0.0;
  for (int c = threadIdx.x; c < cols; c += THREADS) s += bf16(xr[c]);
  const double mean = block_sum(s, buf) / cols;
  double q = 0.0;
  for (int c = threadIdx.x; c < cols; c += THREADS) {
    const double d = bf16(xr[c]) - mean;
    q += d * d;
  }
  const double inv = 1.0 / sqrt(block_sum(q, buf) / cols + (double)eps);
  for (int c = threadIdx.x; c < cols; c += THREADS) yr[c] = (bf16(xr[c]) - mean) * inv * bf16(weight[c]) + bf16(bias[c]);
}
