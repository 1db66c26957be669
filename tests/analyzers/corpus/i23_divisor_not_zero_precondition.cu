// Strips of rows padded up to a multiple of `alignment` (SHOC's stencil layout, with a halo of 1), each thread
// writing its own column of its block's strip: the remainder by `alignment` is computed, so `alignment` is not 0 (z3
// gives n % 0 any value, and a witness with alignment = 0 folds one row onto the next). A negative alignment does
// fold rows together: that is a note naming the precondition, with a witness that divides by no zero.
// expect: race.precondition
// kopt: launch smooth grid=(16, 4) block=(1, 32) args=(out, in, alignment, strip)
__global__ void smooth(float* out, const float* in, int alignment, int strip) {
  int row = blockIdx.x * strip + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  int cols = gridDim.y * blockDim.y + 2;
  int padded = cols + ((cols % alignment) == 0 ? 0 : alignment - (cols % alignment));
  int width = padded - 2;
  for (int i = 0; i < strip; i++)
    out[(row + i + 1) * (width + 2) + (col + 1)] = in[row + i] * 0.5f;
}
