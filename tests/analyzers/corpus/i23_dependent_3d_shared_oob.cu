// As i23_dependent_3d_shared_ok, but the fill runs one row past P: `adj[warp][P][7]` leaves the array for the
// last warp, and for the others it is the next warp's first row, which that warp writes too.
// expect: race.shared, bounds.shared, bank-conflict(8)
template <int W, int P>
__global__ void lists(int *out) {
  __shared__ int adj[W][P][8];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int i = lane; i <= P; i += 32) adj[warp][i][7] = i;
  __syncthreads();
  for (int i = lane; i < P; i += 32) out[(blockIdx.x * W + warp) * P + i] = adj[warp][i][7];
}
void run(int *out) { lists<24, 64><<<10, 24 * 32>>>(out); }
