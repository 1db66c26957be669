// `__launch_bounds__(kThreads)` names a constant of a namespace the kernel's own namespace uses: blocks hold at most
// kThreads threads, so the per-warp partial sums fit kThreads / 32 slots. No launch is given.
// expect: none
namespace cfg { namespace sizes { constexpr int kThreads = 256; } }
namespace ops {
using namespace cfg::sizes;
__global__ void __launch_bounds__(kThreads) row_sum(const float *x, float *out) {
  __shared__ float partial[kThreads / 32];
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < blockDim.x / 32; ++w) s += partial[w];
    out[blockIdx.x] = s;
  }
}
}  // namespace ops
