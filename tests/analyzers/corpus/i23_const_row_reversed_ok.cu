// Each thread sweeps its own row of a matrix with compile-time rows of N, right to left (PolyBench's adi): the
// column N - 2 - i2 stays in the row while the loop bound n is at most N, which the arrays' width presumes:
// assumed (n <= 512), said with the launch.
// expect: coalescing
#define N 512
// kopt: launch sweep grid=(4) block=(256) args=(X, n)
__global__ void sweep(float *X, int n) {
  int i1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i1 < n)
    for (int i2 = 0; i2 < n - 2; i2++) X[i1 * N + (N - i2 - 2)] = 0.5f * X[i1 * N + (N - i2 - 3)] + i1;
}
