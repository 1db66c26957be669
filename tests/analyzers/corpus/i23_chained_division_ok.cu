// The gated linear unit's split: an index unflattened by chained divisions (`index / S / N`, then
// `index / N % S` and `index % N`) and written back at the same position of an output row: one writer per element.
// expect: none
// kopt: launch glu grid=(4096) block=(256, 1, 1) args=(M, S, N, x, y)
// kopt: assume M >= 1 && S >= 1 && N >= 1
__global__ void glu(int M, int S, int N, const float *x, float *y) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= M * S * N) return;
  int i = index / S / N;
  int j = index / N % S;
  int k = index % N;
  float a = x[i * 2 * S * N + j * N + k];
  float b = x[i * 2 * S * N + (j + S) * N + k];
  y[i * S * N + j * N + k] = a / (1.0f + expf(-b));
}
