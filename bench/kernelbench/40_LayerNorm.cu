// Naive layer norm over the last three dims (features * dim1 * dim2 values per batch row), eps = 1e-5: one block per
// row, two-pass statistics (mean, then the mean squared deviation) in global memory, then the affine write.
// kind: softmax-norm
// kopt: task p_40_LayerNorm
// kopt: tune BLOCK in [1024, 512]
// kopt: launch layer_norm grid=(batch_size) block=(BLOCK) args=(x, ln_weight, ln_bias, out, batch_size, features, dim1, dim2)

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

extern "C" __global__ void layer_norm(const float* __restrict__ x, const float* __restrict__ w,
                                      const float* __restrict__ b, float* __restrict__ out, int batch_size,
                                      int features, int dim1, int dim2) {
  __shared__ float buf[BLOCK];
  long long n = (long long)features * dim1 * dim2;
  const float* xr = x + blockIdx.x * n;
  float* yr = out + blockIdx.x * n;
  float s = 0.0f;
  for (long long i = threadIdx.x; i < n; i += BLOCK) s += xr[i];
  float mean = block_sum(s, buf) / n;
  float q = 0.0f;
  for (long long i = threadIdx.x; i < n; i += BLOCK) {
    float d = xr[i] - mean;
    q += d * d;
  }
  float inv = rsqrtf(block_sum(q, buf) / n + 1e-5f);
  for (long long i = threadIdx.x; i < n; i += BLOCK) yr[i] = (xr[i] - mean) * inv * w[i] + b[i];
}
