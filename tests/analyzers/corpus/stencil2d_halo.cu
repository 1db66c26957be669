// 2D 5-point stencil on a 16x16 tile with a one-cell halo.
// Rows of 18 words: the two half-warps of a warp overlap in two banks.
// expect: bank-conflict(2)
// kopt: launch laplace2d grid=(cdiv(nx, 16), cdiv(ny, 16)) block=(16, 16, 1) args=(u, v, nx, ny)
#define BX 16
#define BY 16

struct Grid2D { int nx, ny; };

__device__ __forceinline__ float at(const float* u, Grid2D g, int x, int y) {
  x = min(max(x, 0), g.nx - 1);
  y = min(max(y, 0), g.ny - 1);
  return u[y * g.nx + x];
}

__global__ void laplace2d(const float* __restrict__ u, float* __restrict__ v, int nx, int ny) {
  __shared__ float s[BY + 2][BX + 2];
  Grid2D g{nx, ny};
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
  s[ty + 1][tx + 1] = at(u, g, x, y);
  if (tx == 0) s[ty + 1][0] = at(u, g, x - 1, y);
  if (tx == BX - 1) s[ty + 1][BX + 1] = at(u, g, x + 1, y);
  if (ty == 0) s[0][tx + 1] = at(u, g, x, y - 1);
  if (ty == BY - 1) s[BY + 1][tx + 1] = at(u, g, x, y + 1);
  __syncthreads();
  if (x < nx && y < ny)
    v[y * nx + x] = s[ty][tx + 1] + s[ty + 2][tx + 1] + s[ty + 1][tx] + s[ty + 1][tx + 2] - 4.f * s[ty + 1][tx + 1];
}
