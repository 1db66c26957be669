// Every thread whose element passes a filter stores its index to one place: a threshold selects many threads,
// not one (no order or distinctness makes it unique), so the write-write race is reported.
// expect: race.global
// kopt: launch any_above grid=(cdiv(n, 256)) block=(256) args=(x, limit, found, n)
__global__ void any_above(const float *x, float limit, int *found, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n && x[i] > limit) found[0] = i;
}
