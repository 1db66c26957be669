// Every lane reads the same scalar and its own contiguous element: broadcast, no conflicts.
// expect: none
// kopt: launch normalize grid=(rows) block=(256, 1, 1) args=(x, rows, cols)
__global__ void normalize(float* x, int rows, int cols) {
  __shared__ float norm;
  __shared__ float vals[256];
  int t = threadIdx.x;
  float* row = x + blockIdx.x * cols;
  if (t == 0) {
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += row[c] * row[c];
    norm = rsqrtf(s + 1e-12f);
  }
  vals[t] = t < cols ? row[t] : 0.f;
  __syncthreads();
  if (t < cols) row[t] = vals[t] * norm;
}
