// Profile case: 160 live accumulators per thread: the register file limits occupancy.
// kopt: task vector_add
// kopt: launch register_heavy grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
#define R 160
extern "C" __global__ void register_heavy(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc[R];
  float x = a[i], y = b[i];
#pragma unroll
  for (int j = 0; j < R; ++j) acc[j] = x * (j + 1) + y;
  for (int it = 0; it < 8; ++it) {
#pragma unroll
    for (int j = 0; j < R; ++j) acc[j] = fmaf(acc[j], acc[(j + 1) % R], 0.25f);
  }
  float s = 0.0f;
#pragma unroll
  for (int j = 0; j < R; ++j) s += acc[j];
  c[i] = s;
}
