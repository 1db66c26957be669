// The same segments walked up to and including `ptr[b + 1]`: the last element of one block's walk is the first of
// the next block's segment, sorted offsets or not.
// expect: race.global
// kopt: launch seg_scale grid=(64) block=(256) args=(ptr, x, s)
__global__ void seg_scale(const long *ptr, float *x, float s) {
  const long start = ptr[blockIdx.x], end = ptr[blockIdx.x + 1];
  for (long i = start + threadIdx.x; i <= end; i += blockDim.x) x[i] = x[i] * s;
}
