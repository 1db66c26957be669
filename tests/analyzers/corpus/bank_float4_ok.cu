// 16-byte vector accesses to consecutive elements: quarter-warp phases are conflict-free.
// expect: none
// kopt: launch scale4 grid=(cdiv(n, 128)) block=(128, 1, 1) args=(x, n)
__global__ void scale4(float4* x, int n) {
  __shared__ float4 s4[128];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  if (i < n) s4[t] = x[i];
  __syncthreads();
  if (i < n) {
    float4 v = s4[t];
    v.x *= 2.f; v.y *= 2.f; v.z *= 2.f; v.w *= 2.f;
    x[i] = v;
  }
}
