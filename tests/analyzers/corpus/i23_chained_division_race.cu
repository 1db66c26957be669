// The gated linear unit's split with the row's middle digit left out of the output position: the threads whose
// indices differ only in `j` write one element.
// expect: race.global
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
  y[i * S * N + k] = a / (1.0f + expf(-b));
}
