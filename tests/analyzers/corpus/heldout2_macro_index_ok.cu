// Macro-heavy tile indexing (function-like macros), 32x8 block walking a padded 32x32 tile.
// expect: none
// kopt: launch scale_t grid=(cdiv(n, 32), cdiv(n, 32)) block=(32, 8, 1) args=(in, out, n)
#define TILE 32
#define ROWS 8
#define LD (TILE + 1)
#define SMEM(r, c) smem[(r) * LD + (c)]
#define GIDX(r, c) ((size_t)(r) * n + (c))
__global__ void scale_t(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float smem[TILE * LD];
  const int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
  for (int r = threadIdx.y; r < TILE; r += ROWS)
    SMEM(r, threadIdx.x) = (by + r < n && bx + threadIdx.x < n) ? in[GIDX(by + r, bx + threadIdx.x)] : 0.f;
  __syncthreads();
  for (int r = threadIdx.y; r < TILE; r += ROWS)
    if (bx + r < n && by + threadIdx.x < n) out[GIDX(bx + r, by + threadIdx.x)] = 2.f * SMEM(threadIdx.x, r);
}
