// Final 64 -> 1 reduction steps inside one warp through volatile shared memory, no __syncwarp().
// expect: warp.implicit-sync
// kopt: launch block_max grid=(cdiv(n, 128)) block=(128, 1, 1) args=(x, out, n)
__global__ void block_max(const float* x, float* out, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  s[t] = i < n ? x[i] : -INFINITY;
  __syncthreads();
  if (t < 64) s[t] = fmaxf(s[t], s[t + 64]);
  __syncthreads();
  if (t < 32) {
    volatile float* vs = s;
    vs[t] = fmaxf(vs[t], vs[t + 32]);
    vs[t] = fmaxf(vs[t], vs[t + 16]);
    vs[t] = fmaxf(vs[t], vs[t + 8]);
    vs[t] = fmaxf(vs[t], vs[t + 4]);
    vs[t] = fmaxf(vs[t], vs[t + 2]);
    vs[t] = fmaxf(vs[t], vs[t + 1]);
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
