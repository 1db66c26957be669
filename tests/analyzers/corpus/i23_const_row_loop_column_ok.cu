// A symmetric matrix filled by rows (PolyBench's correlation): thread j1 writes row j1 right of the diagonal and
// column j1 below it, the column j2 a loop counter bounded by the parameter m. Rows of the compile-time length M
// overlap only if m exceeds M: assumed (m <= 512), said with the launch (the column stores are uncoalesced).
// expect: coalescing
#define M 512
// kopt: launch fill grid=(4) block=(256) args=(s, m)
__global__ void fill(float *s, int m) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1) {
    s[j1 * M + j1] = 1.f;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      s[j1 * M + j2] = (float)(j1 + j2);
      s[j2 * M + j1] = (float)(j1 - j2);
    }
  }
}
