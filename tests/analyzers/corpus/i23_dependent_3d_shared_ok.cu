// A shared array with template extents and a constant innermost one (`adj[W][P][8]`): each warp fills its own
// W-row, lane-strided over P, so every index stays inside the W x P x 8 elements.
// expect: bank-conflict(8)
template <int W, int P>
__global__ void lists(int *out) {
  __shared__ int adj[W][P][8];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int i = lane; i < P; i += 32) adj[warp][i][7] = i;
  __syncthreads();
  for (int i = lane; i < P; i += 32) out[(blockIdx.x * W + warp) * P + i] = adj[warp][i][7];
}
void run(int *out) { lists<24, 64><<<10, 24 * 32>>>(out); }
