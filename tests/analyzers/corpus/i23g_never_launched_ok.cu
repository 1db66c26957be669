// A kernel of a library file that nothing in its folder launches: its checks are made for every block size, and
// the configuration says no launch was found. Each thread adds to its own element.
// expect: none
__global__ void i23g_axpy_unlaunched(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
