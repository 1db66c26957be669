// The same helper called twice with one instantiation: both calls use one array, and a warp's lane 0 can write
// the second partial while a slower warp still reads the first call's partials.
// expect: race.shared
// kopt: launch softmax_stats grid=(rows) block=(256, 1, 1) args=(x, out, rows)
__device__ float warpMax(float v) {
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}
__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
typedef float (*warp_op)(float);
template <warp_op op>
__device__ float blockReduce(float v) {
  __shared__ float partial[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = op(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = lane < blockDim.x / 32 ? partial[lane] : 0.f;
  return op(v);
}
__global__ void softmax_stats(const float* x, float* out, int rows) {
  float v = x[blockIdx.x * 256 + threadIdx.x];
  float m = blockReduce<warpMax>(v);
  float s = blockReduce<warpMax>(v - m);
  if (threadIdx.x == 0) { out[2 * blockIdx.x] = m; out[2 * blockIdx.x + 1] = s; }
}
