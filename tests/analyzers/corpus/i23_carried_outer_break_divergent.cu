// i23_carried_inner_break_ok.cu with the break in the tile loop itself: threads at or past n leave it, and the
// others wait at its barriers.
// expect: barrier.divergent
// kopt: launch tiles grid=(64) block=(128) args=(ids, out, 100)
__global__ void tiles(const int *ids, int *out, int n) {
  __shared__ int s_ids[256];
  int kbc = blockIdx.x * 64;
  int stop = kbc + 64;
  while (kbc < stop) {
    if (threadIdx.x >= n) break;
    s_ids[threadIdx.x] = ids[kbc + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[kbc] = s_ids[0];
    __syncthreads();
    kbc += 8;
    kbc -= kbc % 8;
  }
}
