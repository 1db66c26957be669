// A warp-uniform random walk (lane 0 draws each page and broadcasts it, each lane reads its word of the page)
// summed by a loop: every block's thread 0 stores its sum to out[0], and the sums of two blocks differ (each walk
// is seeded from the thread's global index).
// expect: race.global
// kopt: launch walk grid=(8) block=(128) args=(ptr, out, pages, page_size, steps)
__global__ void walk(const float *ptr, float *out, unsigned pages, unsigned page_size, int steps) {
  unsigned lane = threadIdx.x & 31;
  unsigned r = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u;
  float acc = 0.f;
  for (int i = 0; i < steps; i++) {
    r = r * 1664525u + 1013904223u;
    unsigned page = __shfl_sync(0xffffffff, r % pages, 0);
    unsigned word = __shfl_sync(0xffffffff, r % (page_size - 32), 0);
    acc += ptr[page * page_size + word + lane];
  }
  if (threadIdx.x == 0) out[0] = acc;
}
