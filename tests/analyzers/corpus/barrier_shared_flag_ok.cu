// A flag computed by thread 0 and published through shared memory: every thread reads the same value.
// expect: none
// kopt: launch converge grid=(32) block=(128, 1, 1) args=(x, tol)
__global__ void converge(float* x, float tol) {
  __shared__ int done;
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = x[blockIdx.x * 128 + t];
  if (t == 0) done = 0;
  __syncthreads();
  for (int it = 0; it < 100; ++it) {
    if (done) break;
    float v = 0.5f * (s[t] + s[(t + 1) % 128]);
    __syncthreads();
    s[t] = v;
    __syncthreads();
    if (t == 0 && fabsf(s[0] - s[1]) < tol) done = 1;
    __syncthreads();
  }
  x[blockIdx.x * 128 + t] = s[t];
}
