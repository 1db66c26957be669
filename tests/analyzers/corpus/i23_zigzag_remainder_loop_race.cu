// The zigzag pass with the step back forgotten: the second loop starts where the first one stopped, past the
// row's end, so its first element is the next row's, which the next block writes.
// expect: race.global
// kopt: launch zigzag grid=(rows) block=(32, 1, 1) args=(x, rows, C)
// kopt: assume C >= 1
__global__ void zigzag(float* x, int rows, int C) {
  float* row = x + blockIdx.x * C;
  int c = threadIdx.x;
  for (; c < C; c += 32) row[c] = 2.f * row[c];
  for (; c >= 0; c -= 32) row[c] += 1.f;
}
