// The by-value parameter struct's output pointer indexed by the thread's own element.
// expect: none
// kopt: launch apply grid=(4) block=(128) args=(p)
struct Params { const float *in; float *out; int n; };
__global__ void apply(Params p) {
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < p.n) p.out[i] = 2.0f * p.in[i];
}
