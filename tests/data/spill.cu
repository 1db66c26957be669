// A per-thread array too large for registers and indexed at run time lives in local memory (LDL/STL).
extern "C" __global__ void spill(const float* __restrict__ in, const int* __restrict__ idx, float* __restrict__ out,
                                 int n) {
  float acc[256];
#pragma unroll
  for (int k = 0; k < 256; ++k) acc[k] = 0.f;
  for (int k = 0; k < n; ++k) acc[idx[k] & 255] += in[k];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = acc[i & 255];
}
