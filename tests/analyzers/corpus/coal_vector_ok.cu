// float4 loads and stores of consecutive elements.
// expect: none
// kopt: launch relu4 grid=(cdiv(n4, 256)) block=(256, 1, 1) args=(x, y, n4)
__global__ void relu4(const float4* __restrict__ x, float4* __restrict__ y, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = x[i];
    v.x = fmaxf(v.x, 0.f); v.y = fmaxf(v.y, 0.f); v.z = fmaxf(v.z, 0.f); v.w = fmaxf(v.w, 0.f);
    y[i] = v;
  }
}
