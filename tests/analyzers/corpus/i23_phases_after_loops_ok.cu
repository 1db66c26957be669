// A compare-exchange network run `rounds` times over a shared tile, each pass behind a barrier, then read back after
// one more barrier. Whether a pass's accesses and the final reads can share a barrier interval depends on the barrier
// counts alone (r * N1 + k1 inside the loops against rounds * N1 after them, products of unknown trip counts); kopt
// settles that in integer arithmetic before it asks about the indices, whose bit masks need bit-vectors.
// expect: none
// kopt: launch network grid=(64) block=(512) args=(g, rounds, logw)
// kopt: assume 0 <= logw && logw <= 8
__global__ void network(unsigned *g, int rounds, int logw) {
  __shared__ unsigned s[1024];
  s[threadIdx.x] = g[blockIdx.x * 1024 + threadIdx.x];
  s[threadIdx.x + 512] = g[blockIdx.x * 1024 + threadIdx.x + 512];
  for (int r = 0; r < rounds; r++) {
    for (unsigned st = 1u << logw; st > 0; st >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (st - 1));
      unsigned a = s[pos], b = s[pos + st];
      if (a > b) {
        s[pos] = b;
        s[pos + st] = a;
      }
    }
  }
  __syncthreads();
  g[blockIdx.x * 1024 + threadIdx.x] = s[threadIdx.x ^ 1];
  g[blockIdx.x * 1024 + threadIdx.x + 512] = s[(threadIdx.x + 512) ^ 1];
}
