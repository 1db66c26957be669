// Every thread stores its own partial to the block's single output slot.
// expect: race.global
// kopt: launch partial_sums grid=(cdiv(n, 128)) block=(128, 1, 1) args=(x, out, n)
__global__ void partial_sums(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  if (i < n) acc = x[i] * x[i];
  out[blockIdx.x] = acc;
}
