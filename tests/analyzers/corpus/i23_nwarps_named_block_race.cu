// The same kernel whose helper stores by half a warp's lane (`threadIdx.x % 16`): at the block the kernel's name
// gives, lanes l and l + 16 of a row store to one slot.
// expect: race.shared
template <int nwarps>
__device__ void tile_sum(const float *x, float *out, float (*tile)[32]) {
  tile[threadIdx.y][threadIdx.x % 16] = x[(blockIdx.x * nwarps + threadIdx.y) * 32 + threadIdx.x];
  __syncthreads();
  if (threadIdx.y == 0) {
    float s = 0.f;
    for (int w = 0; w < nwarps; ++w) s += tile[w][threadIdx.x];
    out[blockIdx.x * 32 + threadIdx.x] = s;
  }
}
extern "C" __global__ void column_sums(const float *x, float *out) {
  const int nwarps = 4;
  __shared__ float tile[nwarps][32];
  tile_sum<nwarps>(x, out, tile);
}
