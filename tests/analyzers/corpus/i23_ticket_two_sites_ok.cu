// Two branches each take a slot from the same counter (`atomicAdd(count, 1)`) and fill it: slots drawn from one
// counter that is only counted up are distinct across the sites too.
// expect: none
__global__ void edges(const float *d, float *out, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n) return;
  if (d[i] > 0.f) {
    unsigned s = atomicAdd(count, 1);
    out[s] = d[i];
  }
  if (d[i + 1] < 0.f) {
    unsigned s = atomicAdd(count, 1);
    out[s] = -d[i + 1];
  }
}
