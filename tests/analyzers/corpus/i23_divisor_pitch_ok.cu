// Rows padded up to a multiple of `align` (the row length rounded with n % align): for align >= 1 every row holds
// at least n elements, so blocks write disjoint rows. A kernel that divides by a parameter is not run with it 0
// (division by zero is undefined), so no witness may take align = 0, where the padding would be any value; what
// is left needs a negative align: the sign precondition's note.
// expect: race.precondition
// kopt: launch pad_rows grid=(rows) block=(256) args=(x, out, n, align, rows)
__global__ void pad_rows(const float *x, float *out, int n, int align, int rows) {
  int pitch = n + (n % align == 0 ? 0 : align - n % align);
  for (int c = threadIdx.x; c < n; c += blockDim.x)
    out[blockIdx.x * pitch + c] = x[blockIdx.x * n + c];
}
