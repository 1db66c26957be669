// The padded rows of i23_divisor_pitch_ok.cu with the rounding taken off the row length instead of added to it:
// a row then holds fewer than n elements and the blocks' rows overlap for any align >= 1.
// expect: race.global
// kopt: launch pad_rows_short grid=(rows) block=(256) args=(x, out, n, align, rows)
__global__ void pad_rows_short(const float *x, float *out, int n, int align, int rows) {
  int pitch = n - n % align;
  for (int c = threadIdx.x; c < n; c += blockDim.x)
    out[blockIdx.x * pitch + c] = x[blockIdx.x * n + c];
}
