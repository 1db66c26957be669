// Naive row log-softmax: one block per row, three passes (max, sum of exp, write x - max - log(sum)).
// kind: softmax-norm
// kopt: task p_24_LogSoftmax
// kopt: tune BLOCK in [1024, 512, 256]
// kopt: launch log_softmax grid=(batch_size) block=(BLOCK) args=(x, out, batch_size, dim)

template <bool kMax>
__device__ float block_reduce(float v, float* buf) {
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      float o = buf[threadIdx.x + stride];
      buf[threadIdx.x] = kMax ? fmaxf(buf[threadIdx.x], o) : buf[threadIdx.x] + o;
    }
    __syncthreads();
  }
  float r = buf[0];
  __syncthreads();
  return r;
}

extern "C" __global__ void log_softmax(const float* __restrict__ x, float* __restrict__ out, int batch_size, int dim) {
  __shared__ float buf[BLOCK];
  const float* xr = x + (long long)blockIdx.x * dim;
  float* yr = out + (long long)blockIdx.x * dim;
  float m = __int_as_float(0xff800000);  // -inf
  for (int c = threadIdx.x; c < dim; c += BLOCK) m = fmaxf(m, xr[c]);
  m = block_reduce<true>(m, buf);
  float s = 0.0f;
  for (int c = threadIdx.x; c < dim; c += BLOCK) s += expf(xr[c] - m);
  s = block_reduce<false>(s, buf);
  float shift = m + logf(s);
  for (int c = threadIdx.x; c < dim; c += BLOCK) yr[c] = xr[c] - shift;
}
