// Column sums over a grid whose height the host sizes at run time: with one row of blocks each column has one
// writer and the plain store is used; with more, the atomic form. The store's instantiation holds under its own
// launch's `grid_y == 1`, not under the facts of both launches.
// expect: none
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
    column_sums<<<dim3(grid_x, grid_y), 256>>>(sums, x, rows, cols, std::bool_constant<false>{});
  } else {
    column_sums<<<dim3(grid_x, grid_y), 256>>>(sums, x, rows, cols, std::bool_constant<true>{});
  }
}
