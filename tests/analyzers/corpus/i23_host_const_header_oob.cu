// The block is STAGE_THREADS = 256 (a `constexpr unsigned int` of the included header), but the shared tile holds
// 128 elements: threads 128..255 store past its end.
// expect: bounds.shared
#include "i23_host_const_header.h"
__global__ void stage(float *out, const float *in) {
  __shared__ float tile[128];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
void run(float *out, const float *in) {
  stage<<<1, STAGE_THREADS>>>(out, in);
}
