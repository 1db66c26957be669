#pragma once
// kopt analyzer stub: the half, bfloat16 and fp8 types come from analyzers/cuda_decls.h (force-included); the rest of
// cuda_fp16.hpp's and cuda_bf16.hpp's operators and math is declared here, read only by the files that include
// <cuda_fp16.h>, <cuda_bf16.h> or <cuda_fp8.h>, as with nvcc (declared for every file, it cost each parse a few ms)
// (a helper doing `val += __shfl_xor_sync(mask, val, 16)` on a half, or calling `hexp`, must not send the kernels
// that use it to the fallback)
#define __KOPT_HALF_OPS(T) \
  __device__ T operator/(const T&, const T&); __device__ T operator-(const T&); __device__ T operator+(const T&); \
  __device__ T& operator+=(T&, const T&); __device__ T& operator-=(T&, const T&); \
  __device__ T& operator*=(T&, const T&); __device__ T& operator/=(T&, const T&); \
  __device__ T& operator++(T&); __device__ T& operator--(T&); __device__ T operator++(T&, int); \
  __device__ T operator--(T&, int); __device__ bool operator==(const T&, const T&); \
  __device__ bool operator!=(const T&, const T&); __device__ bool operator<(const T&, const T&); \
  __device__ bool operator>(const T&, const T&); __device__ bool operator<=(const T&, const T&); \
  __device__ bool operator>=(const T&, const T&);
#define __KOPT_HALF_MATH(T) \
  __device__ T hexp(T); __device__ T hexp2(T); __device__ T hexp10(T); __device__ T hlog(T); __device__ T hlog2(T); \
  __device__ T hlog10(T); __device__ T hsqrt(T); __device__ T hrsqrt(T); __device__ T hrcp(T); __device__ T hsin(T); \
  __device__ T hcos(T); __device__ T htanh(T); __device__ T hceil(T); __device__ T hfloor(T); __device__ T hrint(T); \
  __device__ T htrunc(T); __device__ T __habs(T); __device__ T __hneg(T); __device__ T __hdiv(T, T); \
  __device__ T __hsub(T, T); __device__ T __hmin(T, T); __device__ T __hmax(T, T); __device__ T __hmax_nan(T, T); __device__ T __hmin_nan(T, T); \
  __device__ bool __heq(T, T); __device__ bool __hne(T, T); __device__ bool __hlt(T, T); __device__ bool __hle(T, T); \
  __device__ bool __hgt(T, T); __device__ bool __hge(T, T); __device__ bool __hisnan(T); __device__ int __hisinf(T);
#define __KOPT_HALF2_MATH(T) \
  __device__ T h2exp(T); __device__ T h2exp2(T); __device__ T h2exp10(T); __device__ T h2log(T); __device__ T h2log2(T); \
  __device__ T h2log10(T); __device__ T h2sqrt(T); __device__ T h2rsqrt(T); __device__ T h2rcp(T); __device__ T h2sin(T); \
  __device__ T h2cos(T); __device__ T h2tanh(T); __device__ T h2ceil(T); __device__ T h2floor(T); __device__ T h2rint(T); \
  __device__ T h2trunc(T); __device__ T __habs2(T); __device__ T __hneg2(T); __device__ T __h2div(T, T); \
  __device__ T __hsub2(T, T); __device__ T __hmax2(T, T); __device__ T __hmin2(T, T); __device__ T __hfma2_relu(T, T, T); \
  __device__ T operator-(const T&, const T&);
__KOPT_HALF_OPS(__half) __KOPT_HALF_OPS(__half2) __KOPT_HALF_OPS(__nv_bfloat16) __KOPT_HALF_OPS(__nv_bfloat162)
__KOPT_HALF_MATH(__half) __KOPT_HALF_MATH(__nv_bfloat16)
__KOPT_HALF2_MATH(__half2) __KOPT_HALF2_MATH(__nv_bfloat162)
__KOPT_SHFL(__nv_bfloat16) __KOPT_SHFL(__nv_bfloat162)
#undef __KOPT_HALF_OPS
#undef __KOPT_HALF_MATH
#undef __KOPT_HALF2_MATH
