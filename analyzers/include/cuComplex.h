// kopt analyzers: cuComplex's types and arithmetic as device code sees them (float2/double2 pairs)
#pragma once
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
#define KOPT_CUCOMPLEX(S, T, C)                                                                                     \
  __host__ __device__ inline T cuCreal##S(C z) { return z.x; }                                                       \
  __host__ __device__ inline T cuCimag##S(C z) { return z.y; }                                                       \
  __host__ __device__ inline C cuConj##S(C z) { C r; r.x = z.x; r.y = -z.y; return r; }                              \
  __host__ __device__ inline C cuCadd##S(C a, C b) { C r; r.x = a.x + b.x; r.y = a.y + b.y; return r; }              \
  __host__ __device__ inline C cuCsub##S(C a, C b) { C r; r.x = a.x - b.x; r.y = a.y - b.y; return r; }              \
  __host__ __device__ inline C cuCmul##S(C a, C b) {                                                                 \
    C r; r.x = a.x * b.x - a.y * b.y; r.y = a.x * b.y + a.y * b.x; return r; }                                       \
  __host__ __device__ inline C cuCdiv##S(C a, C b) {                                                                 \
    T d = b.x * b.x + b.y * b.y; C r;                                                                               \
    r.x = (a.x * b.x + a.y * b.y) / d; r.y = (a.y * b.x - a.x * b.y) / d; return r; }                                \
  __host__ __device__ inline T cuCabs##S(C z) { return sqrt(z.x * z.x + z.y * z.y); }                                \
  __host__ __device__ inline C cuCfma##S(C a, C b, C c) { return cuCadd##S(cuCmul##S(a, b), c); }
KOPT_CUCOMPLEX(f, float, cuFloatComplex)
KOPT_CUCOMPLEX(, double, cuDoubleComplex)
#undef KOPT_CUCOMPLEX
__host__ __device__ inline cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex z; z.x = r; z.y = i; return z; }
__host__ __device__ inline cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex z; z.x = r; z.y = i; return z; }
__host__ __device__ inline cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
__host__ __device__ inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex z) {
  return make_cuDoubleComplex(z.x, z.y); }
__host__ __device__ inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex z) {
  return make_cuFloatComplex(z.x, z.y); }
