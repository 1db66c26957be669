// Fixed-trip unrolled loop with barriers; thread-dependent work only inside the guarded statements.
// expect: none
// kopt: launch butterfly grid=(64) block=(64, 1, 1) args=(x)
__global__ void butterfly(float* x) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = x[blockIdx.x * 64 + t];
  __syncthreads();
#pragma unroll
  for (int stage = 0; stage < 6; ++stage) {
    int partner = t ^ (1 << stage);
    float mine = s[t], other = s[partner];
    __syncthreads();
    if (t < partner) s[t] = mine + other;
    else s[t] = other - mine;
    __syncthreads();
  }
  x[blockIdx.x * 64 + t] = s[t];
}
