// In-place transpose of a shared tile: a thread reads its mirror element while the mirror thread overwrites it.
// expect: race.shared
// kopt: launch tile_transpose grid=(cdiv(n, 32), cdiv(n, 32)) block=(32, 32, 1) args=(a, n)
__global__ void tile_transpose(float* a, int n) {
  __shared__ float tile[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
  tile[ty][tx] = (x < n && y < n) ? a[y * n + x] : 0.f;
  __syncthreads();
  float v = tile[tx][ty];
  tile[ty][tx] = v;
  __syncthreads();
  if (x < n && y < n) a[y * n + x] = tile[ty][tx];
}
