// One block per segment of a CSR offsets array (`ptr[b]` to `ptr[b + 1]`): segments of different blocks are
// disjoint when the offsets are sorted ascending, as a cumulative sum is; kopt cannot check data, so the race that
// unsorted offsets would allow is a precondition note naming the order.
// expect: race.precondition
// kopt: launch seg_scale grid=(64) block=(256) args=(ptr, x, s)
__global__ void seg_scale(const long *ptr, float *x, float s) {
  const long start = ptr[blockIdx.x], end = ptr[blockIdx.x + 1];
  for (long i = start + threadIdx.x; i < end; i += blockDim.x) x[i] = x[i] * s;
}
