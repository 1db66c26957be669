// Each block's thread 0 stores its partial into result[0]: the blocks overwrite each other.
// expect: race.global
// kopt: launch partial_max grid=(cdiv(n, 128)) block=(128, 1, 1) args=(x, result, n)
__global__ void partial_max(const float* __restrict__ x, float* result, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  s[t] = i < n ? x[i] : -INFINITY;
  __syncthreads();
  for (int w = 64; w > 0; w >>= 1) {
    if (t < w) s[t] = fmaxf(s[t], s[t + w]);
    __syncthreads();
  }
  if (t == 0) result[0] = s[0];
}
