// A by-value parameter struct carries the output pointer; every thread writes field `out[0]`.
// expect: race.global
// kopt: launch apply grid=(4) block=(128) args=(p)
struct Params { const float *in; float *out; int n; };
__global__ void apply(Params p) {
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < p.n) p.out[0] = p.in[i];
}
