// Naive row softmax: one block per row, three passes over the row in global memory (max, sum of exp, write).
// kopt: task softmax_rows
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: launch softmax_rows grid=(rows) block=(BLOCK) args=(x, y, rows, cols)

// Block-wide max / sum over BLOCK threads (a power of two) through buf[BLOCK]; the result goes to every thread.
__device__ float block_max(float v, float* buf) {
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) buf[threadIdx.x] = fmaxf(buf[threadIdx.x], buf[threadIdx.x + stride]);
    __syncthreads();
  }
  float r = buf[0];
  __syncthreads();  // buf is reused by the next reduction
  return r;
}

__device__ float block_sum(float v, float* buf) {
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) buf[threadIdx.x] += buf[threadIdx.x + stride];
    __syncthreads();
  }
  float r = buf[0];
  __syncthreads();
  return r;
}

extern "C" __global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  __shared__ float buf[BLOCK];
  const float* xr = x + (long long)blockIdx.x * cols;
  float* yr = y + (long long)blockIdx.x * cols;

  float m = __int_as_float(0xff800000);  // -inf
  for (int c = threadIdx.x; c < cols; c += BLOCK) m = fmaxf(m, xr[c]);
  m = block_max(m, buf);

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) s += expf(xr[c] - m);
  s = block_sum(s, buf);

  float inv = 1.0f / s;
  for (int c = threadIdx.x; c < cols; c += BLOCK) yr[c] = expf(xr[c] - m) * inv;
}
