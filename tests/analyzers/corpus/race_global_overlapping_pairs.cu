// Each thread writes its element and its right neighbour: adjacent threads overlap.
// expect: race.global
// kopt: launch smear grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, y, n)
__global__ void smear(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) {
    y[i] = x[i];
    y[i + 1] = x[i];
  }
}
