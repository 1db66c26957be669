// Threads leave the tile loop early on their own data, skipping barriers the others still execute.
// expect: barrier.divergent
// kopt: launch scan_tiles grid=(16) block=(256, 1, 1) args=(x, ntiles)
__global__ void scan_tiles(float* x, int ntiles) {
  __shared__ float s[256];
  int t = threadIdx.x;
  for (int k = 0; k < ntiles; ++k) {
    float v = x[(blockIdx.x * ntiles + k) * 256 + t];
    if (v < 0.f) break;
    s[t] = v;
    __syncthreads();
    x[(blockIdx.x * ntiles + k) * 256 + t] = s[255 - t];
    __syncthreads();
  }
}
