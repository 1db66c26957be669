// A kernel launched from another language (no launch in C++) names its warps per block (`const int nwarps = 4`)
// and its helper lays threads out as 32 lanes by nwarps rows: kopt presumes that block, at which each thread owns
// one slot of the tile.
// expect: none
template <int nwarps>
__device__ void tile_sum(const float *x, float *out, float (*tile)[32]) {
  tile[threadIdx.y][threadIdx.x] = x[(blockIdx.x * nwarps + threadIdx.y) * 32 + threadIdx.x];
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
