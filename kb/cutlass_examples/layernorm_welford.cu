// Layer norm (bf16 in/out, f32 math) with Welford statistics: one block per row, one read of the row for mean
// and variance. Each thread keeps a Welford state (count, mean, M2 = sum of squared deviations). Rows whose length
// is a multiple of 8 are read as 16-byte vectors of 8 bf16: the 8 values' own mean and M2 are computed in
// registers, then merged into the running state with Chan's formula (one division per 8 elements instead of one
// per element). Other rows use the per-element Welford update. States merge across the warp with shuffles
// (three values per lane), then per warp through shared memory; count-0 states merge as no-ops. A second pass
// normalizes with the biased variance M2 / cols and writes bf16 (8 at a time on the vector path).
// kopt: task layernorm
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: launch layernorm_welford grid=(rows) block=(BLOCK) args=(x, weight, bias, y, rows, cols, eps)
#include <cuda_bf16.h>

#define FULL_MASK 0xffffffffu

struct Welford {
  float n;     // count
  float mean;
  float m2;    // sum of squared deviations from mean
};

// Chan et al.: combine the statistics of two disjoint sets.
__device__ __forceinline__ Welford merge(Welford a, Welford b) {
  const float n = a.n + b.n;
  if (n == 0.0f) return a;
  const float d = b.mean - a.mean;
  const float fb = b.n / n;
  return {n, a.mean + d * fb, a.m2 + b.m2 + d * d * a.n * fb};
}

__device__ __forceinline__ void update(Welford& w, float v) {
  w.n += 1.0f;
  const float d = v - w.mean;
  w.mean += d / w.n;
  w.m2 += d * (v - w.mean);
}

__device__ __forceinline__ Welford warp_merge(Welford w) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    Welford o = {__shfl_xor_sync(FULL_MASK, w.n, offset), __shfl_xor_sync(FULL_MASK, w.mean, offset),
                 __shfl_xor_sync(FULL_MASK, w.m2, offset)};
    w = merge(w, o);
  }
  return w;
}

// 16 bytes <-> 8 floats.
__device__ __forceinline__ void unpack8(uint4 raw, float* f) {
  const __nv_bfloat16* h = reinterpret_cast<const __nv_bfloat16*>(&raw);
#pragma unroll
  for (int k = 0; k < 8; ++k) f[k] = __bfloat162float(h[k]);
}

__device__ __forceinline__ uint4 pack8(const float* f) {
  uint4 raw;
  __nv_bfloat16* h = reinterpret_cast<__nv_bfloat16*>(&raw);
#pragma unroll
  for (int k = 0; k < 8; ++k) h[k] = __float2bfloat16(f[k]);  // round to nearest even
  return raw;
}

extern "C" __global__ void __launch_bounds__(BLOCK) layernorm_welford(
    const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ weight,
    const __nv_bfloat16* __restrict__ bias, __nv_bfloat16* __restrict__ y, int rows, int cols, float eps) {
  __shared__ Welford warp_states[BLOCK / 32];
  __shared__ float row_mean, row_rstd;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const __nv_bfloat16* xr = x + (long long)blockIdx.x * cols;
  __nv_bfloat16* yr = y + (long long)blockIdx.x * cols;
  const bool vec = (cols & 7) == 0;  // rows then start 16-byte aligned

  // Pass 1: statistics.
  Welford st = {0.0f, 0.0f, 0.0f};
  if (vec) {
    const uint4* xr8 = reinterpret_cast<const uint4*>(xr);
    for (int i = threadIdx.x; i < cols / 8; i += BLOCK) {
      float f[8];
      unpack8(xr8[i], f);
      float sum = 0.0f;
#pragma unroll
      for (int k = 0; k < 8; ++k) sum += f[k];
      const float mean8 = sum * 0.125f;
      float m2 = 0.0f;
#pragma unroll
      for (int k = 0; k < 8; ++k) m2 += (f[k] - mean8) * (f[k] - mean8);
      st = merge(st, Welford{8.0f, mean8, m2});
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += BLOCK) update(st, __bfloat162float(xr[c]));
  }

  st = warp_merge(st);
  if (lane == 0) warp_states[warp] = st;
  __syncthreads();
  if (warp == 0) {
    Welford w = lane < BLOCK / 32 ? warp_states[lane] : Welford{0.0f, 0.0f, 0.0f};
    w = warp_merge(w);
    if (lane == 0) {
      row_mean = w.mean;
      row_rstd = rsqrtf(w.m2 / (float)cols + eps);  // biased variance
    }
  }
  __syncthreads();
  const float mean = row_mean, rstd = row_rstd;

  // Pass 2: normalize, scale, shift.
  if (vec) {
    const uint4* xr8 = reinterpret_cast<const uint4*>(xr);
    const uint4* w8 = reinterpret_cast<const uint4*>(weight);
    const uint4* b8 = reinterpret_cast<const uint4*>(bias);
    uint4* yr8 = reinterpret_cast<uint4*>(yr);
    for (int i = threadIdx.x; i < cols / 8; i += BLOCK) {
      float f[8], g[8], h[8];
      unpack8(xr8[i], f);
      unpack8(w8[i], g);
      unpack8(b8[i], h);
#pragma unroll
      for (int k = 0; k < 8; ++k) f[k] = (f[k] - mean) * rstd * g[k] + h[k];
      yr8[i] = pack8(f);
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += BLOCK) {
      const float v = (__bfloat162float(xr[c]) - mean) * rstd;
      yr[c] = __float2bfloat16(v * __bfloat162float(weight[c]) + __bfloat162float(bias[c]));
    }
  }
}
