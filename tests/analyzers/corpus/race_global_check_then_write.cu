// Non-atomic running maximum: check-then-write on one global scalar.
// expect: race.global
// kopt: launch global_max grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, best, n)
__global__ void global_max(const float* __restrict__ x, float* best, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > *best) *best = x[i];
}
