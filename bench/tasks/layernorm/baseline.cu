// Naive layernorm: one block per row, three passes over the row in global memory (mean, variance, write);
// bf16 loads and stores, f32 arithmetic.
// kopt: task layernorm
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: launch layernorm grid=(rows) block=(BLOCK) args=(x, weight, bias, y, rows, cols, eps)
#include <cuda_bf16.h>

// Block-wide sum over BLOCK threads (a power of two) through buf[BLOCK]; the result goes to every thread.
__device__ float block_sum(float v, float* buf) {
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) buf[threadIdx.x] += buf[threadIdx.x + stride];
    __syncthreads();
  }
  float r = buf[0];
  __syncthreads();  // buf is reused by the next reduction
  return r;
}

extern "C" __global__ void layernorm(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ weight,
                                     const __nv_bfloat16* __restrict__ bias, __nv_bfloat16* __restrict__ y,
                                     int rows, int cols, float eps) {
  __shared__ float buf[BLOCK];
  const __nv_bfloat16* xr = x + (long long)blockIdx.x * cols;
  __nv_bfloat16* yr = y + (long long)blockIdx.x * cols;

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) s += __bfloat162float(xr[c]);
  const float mean = block_sum(s, buf) / cols;

  float q = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    float d = __bfloat162float(xr[c]) - mean;
    q += d * d;
  }
  const float rstd = rsqrtf(block_sum(q, buf) / cols + eps);

  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    float v = (__bfloat162float(xr[c]) - mean) * rstd;
    yr[c] = __float2bfloat16(v * __bfloat162float(weight[c]) + __bfloat162float(bias[c]));
  }
}
