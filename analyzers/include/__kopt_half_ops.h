#pragma once
// kopt analyzer stub: the half, bfloat16 and fp8 types come from analyzers/cuda_decls.h (force-included); the rest of
// cuda_fp16.hpp's and cuda_bf16.hpp's operators and math is declared here, read only by the files that include
// <cuda_fp16.h>, <cuda_bf16.h>, <cuda_fp8.h> or <cuda_fp4.h>, as with nvcc (declared for every file, it cost each
// parse a few ms)
// (a helper doing `val += __shfl_xor_sync(mask, val, 16)` on a half, or calling `hexp`, must not send the kernels
// that use it to the fallback)
extern "C++" {  // (also where a header includes it inside `extern "C"`, as MAGMA's magma_types.h)
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
// conversions with each rounding, reinterpretation and packing (both types' names), the saturating, rounded and
// relu forms of the arithmetic, and the unordered, pairwise and mask forms of the comparisons
#define __KOPT_CVT16(H, n, CT, ct) __device__ H __##ct##2##n##_rn(CT); __device__ H __##ct##2##n##_rz(CT); \
  __device__ H __##ct##2##n##_rd(CT); __device__ H __##ct##2##n##_ru(CT); __device__ CT __##n##2##ct##_rn(H); \
  __device__ CT __##n##2##ct##_rz(H); __device__ CT __##n##2##ct##_rd(H); __device__ CT __##n##2##ct##_ru(H);
#define __KOPT_CVTS16(H, n) __KOPT_CVT16(H, n, int, int) __KOPT_CVT16(H, n, unsigned, uint) \
  __KOPT_CVT16(H, n, short, short) __KOPT_CVT16(H, n, unsigned short, ushort) \
  __KOPT_CVT16(H, n, long long, ll) __KOPT_CVT16(H, n, unsigned long long, ull) \
  __device__ H __float2##n##_rz(float); __device__ H __float2##n##_rd(float); __device__ H __float2##n##_ru(float); \
  __device__ H __double2##n(double); __device__ signed char __##n##2char_rz(H); \
  __device__ unsigned char __##n##2uchar_rz(H); __device__ short __##n##_as_short(H); \
  __device__ unsigned short __##n##_as_ushort(H); __device__ H __short_as_##n(short); \
  __device__ H __ushort_as_##n(unsigned short);
#define __KOPT_PACK16(H, H2, n) __device__ H2 __##n##2##n##2(H); __device__ H2 __low2##n##2(H2); \
  __device__ H2 __high2##n##2(H2); __device__ H2 __lows2##n##2(H2, H2); __device__ H2 __highs2##n##2(H2, H2);
#define __KOPT_MORE16(H, H2) __device__ H2 __lowhigh2highlow(H2); \
  __device__ H __hadd_sat(H, H); __device__ H __hsub_sat(H, H); __device__ H __hmul_sat(H, H); \
  __device__ H __hfma_sat(H, H, H); __device__ H __hadd_rn(H, H); __device__ H __hsub_rn(H, H); \
  __device__ H __hmul_rn(H, H); __device__ H __hfma_relu(H, H, H); __device__ H2 __hsub2_sat(H2, H2); \
  __device__ H2 __hfma2_sat(H2, H2, H2); __device__ H2 __hcmadd(H2, H2, H2); __device__ H2 __hmax2_nan(H2, H2); \
  __device__ H2 __hmin2_nan(H2, H2); __device__ H2 __hisnan2(H2);
#define __KOPT_CMP16(H, H2, c) __device__ bool __h##c##u(H, H); __device__ H2 __h##c##2(H2, H2); \
  __device__ H2 __h##c##u2(H2, H2); __device__ bool __hb##c##2(H2, H2); __device__ bool __hb##c##u2(H2, H2); \
  __device__ unsigned __h##c##2_mask(H2, H2); __device__ unsigned __h##c##u2_mask(H2, H2);
#define __KOPT_ALL16(H, H2) __KOPT_MORE16(H, H2) __KOPT_CMP16(H, H2, eq) __KOPT_CMP16(H, H2, ne) \
  __KOPT_CMP16(H, H2, le) __KOPT_CMP16(H, H2, ge) __KOPT_CMP16(H, H2, lt) __KOPT_CMP16(H, H2, gt)
__KOPT_CVTS16(__half, half) __KOPT_CVTS16(__nv_bfloat16, bfloat16)
__KOPT_PACK16(__half, __half2, half) __KOPT_PACK16(__nv_bfloat16, __nv_bfloat162, bfloat16)
__KOPT_ALL16(__half, __half2) __KOPT_ALL16(__nv_bfloat16, __nv_bfloat162)
#undef __KOPT_ALL16
#undef __KOPT_CMP16
#undef __KOPT_MORE16
#undef __KOPT_PACK16
#undef __KOPT_CVTS16
#undef __KOPT_CVT16
__host__ __device__ __half2 make_half2(__half, __half);
__host__ __device__ __nv_bfloat162 make_bfloat162(__nv_bfloat16, __nv_bfloat16);
__device__ __half2 __float22half2_rn(float2); __device__ __nv_bfloat162 __float22bfloat162_rn(float2);
__device__ float __low2float(__nv_bfloat162); __device__ float __high2float(__nv_bfloat162);
// cuda_fp16.hpp's and cuda_bf16.hpp's constants
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
// <cuda_fp8.h>'s power-of-two scale (e8m0) and <cuda_fp4.h>'s four-bit floats (CUDA 12.8)
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
struct __attribute__((aligned(1))) __nv_fp8_e8m0 { __nv_fp8_storage_t __x; __nv_fp8_e8m0() = default;
  __device__ explicit __nv_fp8_e8m0(float); __device__ explicit operator float() const; };
__device__ __nv_bfloat16_raw __nv_cvt_e8m0_to_bf16raw(__nv_fp8_storage_t);
__device__ __nv_fp8_storage_t __nv_cvt_float_to_e8m0(float, __nv_saturation_t, cudaRoundMode);
__device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_e8m0(__nv_bfloat16_raw, __nv_saturation_t, cudaRoundMode);
typedef unsigned char __nv_fp4_storage_t; typedef unsigned char __nv_fp4x2_storage_t;
typedef unsigned short __nv_fp4x4_storage_t; enum __nv_fp4_interpretation_t { __NV_E2M1 };
struct __attribute__((aligned(1))) __nv_fp4_e2m1 { __nv_fp4_storage_t __x; __nv_fp4_e2m1() = default;
  __device__ explicit __nv_fp4_e2m1(float); __device__ explicit operator float() const; };
struct __attribute__((aligned(1))) __nv_fp4x2_e2m1 { __nv_fp4x2_storage_t __x; __nv_fp4x2_e2m1() = default;
  __device__ explicit __nv_fp4x2_e2m1(const float2&); __device__ explicit operator float2() const; };
struct __attribute__((aligned(2))) __nv_fp4x4_e2m1 { __nv_fp4x4_storage_t __x; __nv_fp4x4_e2m1() = default;
  __device__ explicit __nv_fp4x4_e2m1(const float4&); __device__ explicit operator float4() const; };
__device__ __half_raw __nv_cvt_fp4_to_halfraw(__nv_fp4_storage_t, __nv_fp4_interpretation_t);
__device__ __half2_raw __nv_cvt_fp4x2_to_halfraw2(__nv_fp4x2_storage_t, __nv_fp4_interpretation_t);
__device__ __nv_fp4_storage_t __nv_cvt_float_to_fp4(float, __nv_fp4_interpretation_t, cudaRoundMode);
__device__ __nv_fp4x2_storage_t __nv_cvt_float2_to_fp4x2(float2, __nv_fp4_interpretation_t, cudaRoundMode);
}  // extern "C++"
