// The row sweep reading the previous thread's row (i1 - 1) while that thread writes it: a race at any n.
// expect: race.global, coalescing
#define N 512
// kopt: launch sweep grid=(4) block=(256) args=(X, n)
__global__ void sweep(float *X, int n) {
  int i1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i1 >= 1 && i1 < n)
    for (int i2 = 0; i2 < n - 2; i2++) X[i1 * N + (N - i2 - 2)] = 0.5f * X[(i1 - 1) * N + (N - i2 - 2)] + i1;
}
