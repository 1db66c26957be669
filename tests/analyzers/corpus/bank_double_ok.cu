// Contiguous 8-byte accesses: each half-warp phase covers all 32 banks once.
// expect: none
// kopt: launch axpy_f64 grid=(cdiv(n, 256)) block=(256, 1, 1) args=(a, x, y, n)
__global__ void axpy_f64(double a, const double* x, double* y, int n) {
  __shared__ double sx[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  sx[t] = i < n ? x[i] : 0.0;
  __syncthreads();
  if (i < n) y[i] = a * sx[t] + y[i];
}
