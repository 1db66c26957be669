// Transpose with an XOR-swizzled tile instead of padding.
// expect: none
// kopt: launch transpose_swizzle grid=(cdiv(n, 32), cdiv(n, 32)) block=(32, 32, 1) args=(out, in, n)
__global__ void transpose_swizzle(float* __restrict__ out, const float* __restrict__ in, int n) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
  if (x < n && y < n) tile[ty][tx ^ ty] = in[y * n + x];
  __syncthreads();
  int ox = blockIdx.y * 32 + tx, oy = blockIdx.x * 32 + ty;
  if (ox < n && oy < n) out[oy * n + ox] = tile[tx][ty ^ tx];
}
