// A helper template applies the function given as its template argument (`apply<neighbour>`): the call through
// the parameter runs that function, which reads the next thread's element after the barrier.
// expect: none
// kopt: launch smooth grid=(64) block=(256) args=(x, y)
__device__ float neighbour(const float *s, int t) { return s[(t + 1) % 256]; }

template <float (*op)(const float *, int)>
__device__ float apply(const float *s, int t) { return op(s, t); }

__global__ void smooth(const float *x, float *y) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = x[blockIdx.x * 256 + t];
  __syncthreads();
  y[blockIdx.x * 256 + t] = apply<neighbour>(s, t);
}
