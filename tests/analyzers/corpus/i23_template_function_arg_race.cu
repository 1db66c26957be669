// i23_template_function_arg_ok.cu without the barrier: the function called through the template parameter reads
// the next thread's element while that thread may still be storing it.
// expect: sync.missing
// kopt: launch smooth grid=(64) block=(256) args=(x, y)
__device__ float neighbour(const float *s, int t) { return s[(t + 1) % 256]; }

template <float (*op)(const float *, int)>
__device__ float apply(const float *s, int t) { return op(s, t); }

__global__ void smooth(const float *x, float *y) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = x[blockIdx.x * 256 + t];
  y[blockIdx.x * 256 + t] = apply<neighbour>(s, t);
}
