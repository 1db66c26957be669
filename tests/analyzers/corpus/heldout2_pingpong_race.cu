// The same diffusion writing back into the buffer it is reading from.
// expect: race.shared
// kopt: launch diffuse grid=(cdiv(n, 128)) block=(128, 1, 1) args=(x, n, steps)
__global__ void diffuse(float* x, int n, int steps) {
  __shared__ float buf[2][130];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  buf[0][t + 1] = i < n ? x[i] : 0.f;
  if (t < 2) { buf[0][t * 129] = 0.f; buf[1][t * 129] = 0.f; }
  __syncthreads();
  for (int k = 0; k < steps; ++k) {
    const int cur = k & 1;
    buf[cur][t + 1] = 0.25f * buf[cur][t] + 0.5f * buf[cur][t + 1] + 0.25f * buf[cur][t + 2];
    __syncthreads();
  }
  if (i < n) x[i] = buf[steps & 1][t + 1];
}
