// Each thread fills its own record, then sums the record's member array up to a count read back from memory.
// The count is data, but `leaves[i]` is a subscript of a declared 4-element member array: it stays inside the
// thread's own record, so no other thread's record is touched.
// expect: none
// kopt: launch fill grid=(8) block=(128) args=(recs, out, n)
struct Rec { int sign, leaves[4]; unsigned count; };
__device__ int total(const Rec *r) {
  int v = 0;
  for (unsigned i = 0; i < r->count; i++) v += r->leaves[i];
  return v;
}
__global__ void fill(Rec *recs, int *out, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    Rec *r = recs + idx;
    r->sign = 1;
    r->leaves[0] = idx;
    r->count = 1;
    out[idx] = total(r);
  }
}
