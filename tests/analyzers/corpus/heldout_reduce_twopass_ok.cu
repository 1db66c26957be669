// Two-pass reduction, pass 1: grid-stride accumulation then a tree with block-size guards.
// expect: none
// kopt: launch reduce_pass1 grid=(240) block=(512, 1, 1) args=(x, partial, n)
template <unsigned BS>
__global__ void reduce_pass1(const float* __restrict__ x, float* __restrict__ partial, int n) {
  __shared__ float s[BS];
  unsigned t = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * BS + t; i < n; i += BS * gridDim.x) acc += x[i];
  s[t] = acc;
  __syncthreads();
  if (BS >= 512) { if (t < 256) s[t] += s[t + 256]; __syncthreads(); }
  if (BS >= 256) { if (t < 128) s[t] += s[t + 128]; __syncthreads(); }
  if (BS >= 128) { if (t < 64) s[t] += s[t + 64]; __syncthreads(); }
  if (t < 32) {
    float v = s[t] + s[t + 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (t == 0) partial[blockIdx.x] = v;
  }
}
template __global__ void reduce_pass1<512>(const float*, float*, int);
