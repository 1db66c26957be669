// `__launch_bounds__(kThreads)` allows blocks of 512 threads (a constant of a namespace the kernel uses), 16 warps:
// their partial sums overrun the 8 slots sized for 256 threads. No launch is given.
// expect: bounds.shared
namespace cfg { namespace sizes { constexpr int kThreads = 512; } }
namespace ops {
using namespace cfg::sizes;
__global__ void __launch_bounds__(kThreads) row_sum(const float *x, float *out) {
  __shared__ float partial[8];
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
