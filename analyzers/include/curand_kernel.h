#pragma once
// kopt analyzer stub of cuRAND's device API: a generator's state is a struct the calls read and write through its
// pointer, so two threads sharing one state race (race.curand-state).
struct curandStateXORWOW { unsigned int d, v[5]; int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra; double boxmuller_extra_double; };
typedef curandStateXORWOW curandState_t; typedef curandStateXORWOW curandState;
struct curandStatePhilox4_32_10 { uint4 ctr, output; uint2 key; unsigned int STATE; int boxmuller_flag,
  boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
typedef curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
struct curandStateMRG32k3a { double s1[3], s2[3]; int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra; double boxmuller_extra_double; };
typedef curandStateMRG32k3a curandStateMRG32k3a_t;
// MTGP32: one state serves the threads of a block (up to 256), each drawing its own element of a round
struct mtgp32_kernel_params;
struct curandStateMtgp32 { unsigned int s[1024]; int offset; int pIdx; mtgp32_kernel_params *k; };
typedef curandStateMtgp32 curandStateMtgp32_t;
__device__ unsigned int curand_mtgp32_single(curandStateMtgp32*);
__device__ unsigned int curand_mtgp32_specific(curandStateMtgp32*, unsigned char, unsigned char);
__device__ float curand_mtgp32_single_specific(curandStateMtgp32*, unsigned char, unsigned char);
#define __KOPT_CURAND(S) \
  __device__ void curand_init(unsigned long long, unsigned long long, unsigned long long, S*); \
  __device__ unsigned int curand(S*); __device__ float curand_uniform(S*); __device__ double curand_uniform_double(S*); \
  __device__ float curand_normal(S*); __device__ double curand_normal_double(S*); __device__ float2 curand_normal2(S*); \
  __device__ float curand_log_normal(S*, float, float); __device__ double curand_log_normal_double(S*, double, double); \
  __device__ double2 curand_normal2_double(S*); __device__ unsigned int curand_poisson(S*, double);
__KOPT_CURAND(curandStateXORWOW) __KOPT_CURAND(curandStatePhilox4_32_10) __KOPT_CURAND(curandStateMRG32k3a) __KOPT_CURAND(curandStateMtgp32)
__device__ float4 curand_uniform4(curandStatePhilox4_32_10*); __device__ float4 curand_normal4(curandStatePhilox4_32_10*);
#undef __KOPT_CURAND
