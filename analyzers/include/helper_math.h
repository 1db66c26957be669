#pragma once
// kopt analyzer stub of the CUDA samples' helper_math.h: vector operators (declarations only)
#define __KOPT_VOPS(V, T) \
  __device__ V operator+(V, V); __device__ V operator-(V, V); __device__ V operator*(V, V); __device__ V operator/(V, V); \
  __device__ V operator*(V, T); __device__ V operator*(T, V); __device__ V operator/(V, T); __device__ V operator-(V); \
  __device__ void operator+=(V&, V); __device__ void operator-=(V&, V); __device__ void operator*=(V&, T); \
  __device__ void operator*=(V&, V); __device__ void operator/=(V&, T); __device__ T dot(V, V); \
  __device__ V fminf(V, V); __device__ V fmaxf(V, V); __device__ V clamp(V, T, T); __device__ V lerp(V, V, T);
__KOPT_VOPS(float2, float) __KOPT_VOPS(float3, float) __KOPT_VOPS(float4, float) __KOPT_VOPS(int2, int)
__KOPT_VOPS(int3, int) __KOPT_VOPS(int4, int)
#undef __KOPT_VOPS
__device__ float clamp(float, float, float); __device__ float lerp(float, float, float);
__device__ float3 make_float3(float4); __device__ float4 make_float4(float3, float); __device__ float3 make_float3(float);
__device__ float4 make_float4(float); __device__ float2 make_float2(float); __device__ float3 cross(float3, float3);
__device__ float length(float3); __device__ float3 normalize(float3); __device__ float length(float2);
