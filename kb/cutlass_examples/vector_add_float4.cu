// Vectorized elementwise add: every thread moves UNROLL independent float4 vectors (16 bytes each) per array, so
// each global access is a 128-bit LDG.E.128 / STG.E.128 and UNROLL of them are in flight before the first add.
// The n / 4 full vectors are handled by the vector path; the n % 4 leftover elements (at most 3) by block 0.
// cudaMalloc'd buffers are 256-byte aligned, so a, b and c may be reinterpreted as float4 arrays.
// kopt: task vector_add
// kopt: tune BLOCK in [256, 128, 512]
// kopt: tune UNROLL in [4, 1, 2, 8]
// kopt: launch vector_add_f4 grid=(max(cdiv(n // 4, BLOCK * UNROLL), 1)) block=(BLOCK) args=(a, b, c, n)

extern "C" __global__ void __launch_bounds__(BLOCK) vector_add_f4(const float* __restrict__ a,
                                                                   const float* __restrict__ b,
                                                                   float* __restrict__ c, int n) {
  const long long nvec = n / 4;  // full float4 vectors
  const float4* a4 = reinterpret_cast<const float4*>(a);
  const float4* b4 = reinterpret_cast<const float4*>(b);
  float4* c4 = reinterpret_cast<float4*>(c);

  // The block owns BLOCK * UNROLL consecutive vectors; thread t takes t, t + BLOCK, ... so that every one of the
  // UNROLL steps is a fully coalesced 16 * BLOCK byte access.
  const long long base = (long long)blockIdx.x * BLOCK * UNROLL + threadIdx.x;
  float4 va[UNROLL], vb[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {
    const long long i = base + (long long)u * BLOCK;
    if (i < nvec) {
      va[u] = a4[i];
      vb[u] = b4[i];
    }
  }
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {
    const long long i = base + (long long)u * BLOCK;
    if (i < nvec) c4[i] = make_float4(va[u].x + vb[u].x, va[u].y + vb[u].y, va[u].z + vb[u].z, va[u].w + vb[u].w);
  }

  // Scalar tail: elements [4 * nvec, n).
  if (blockIdx.x == 0) {
    const long long i = 4 * nvec + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
  }
}
