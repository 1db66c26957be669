// Column sums over a grid whose height the host sizes at run time, with the tags swapped: the plain store is
// launched when there is more than one row of blocks, so blocks of one column overwrite each other's sums.
// expect: race.global
#include <type_traits>
template <bool Atomic>
__global__ void column_sums(float *sums, const float *x, int rows, int cols, std::bool_constant<Atomic>) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float s = 0.0f;
  for (int r = blockIdx.y; r < rows; r += gridDim.y) s += x[r * cols + c];
  if constexpr (Atomic) {
    atomicAdd(&sums[c], s);
  } else {
    sums[c] = s;
  }
}
void run(float *sums, const float *x, int rows, int cols, int sms) {
  int grid_x = (cols + 255) / 256;
  int grid_y = sms * 8 / grid_x;
  if (grid_y < 1) grid_y = 1;
  if (grid_y == 1) {
    column_sums<<<dim3(grid_x, grid_y), 256>>>(sums, x, rows, cols, std::bool_constant<true>{});
  } else {
    column_sums<<<dim3(grid_x, grid_y), 256>>>(sums, x, rows, cols, std::bool_constant<false>{});
  }
}
