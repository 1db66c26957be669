// Jacobi smoothing of a shared tile in place: neighbours are read in the same interval they are overwritten.
// expect: race.shared
// kopt: launch smooth grid=(cdiv(n, 128)) block=(128, 1, 1) args=(x, n, iters)
__global__ void smooth(float* x, int n, int iters) {
  __shared__ float s[130];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  s[t + 1] = i < n ? x[i] : 0.f;
  if (t == 0) { s[0] = 0.f; s[129] = 0.f; }
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    s[t + 1] = 0.5f * s[t + 1] + 0.25f * (s[t] + s[t + 2]);
    __syncthreads();
  }
  if (i < n) x[i] = s[t + 1];
}
