// The symmetric fill with its loop starting one column early (j2 = j1 - 1): thread j1 writes s[(j1 - 1) * M + j1]
// (column j1 of row j1 - 1), which thread j1 - 1 also writes as part of its own row.
// expect: race.global, coalescing
#define M 512
// kopt: launch fill grid=(4) block=(256) args=(s, m)
__global__ void fill(float *s, int m) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 >= 1 && j1 < m - 1) {
    s[j1 * M + j1] = 1.f;
    for (int j2 = j1 - 1; j2 < m; j2++) {
      if (j2 == j1) continue;
      s[j1 * M + j2] = (float)(j1 + j2);
      s[j2 * M + j1] = (float)(j1 - j2);
    }
  }
}
