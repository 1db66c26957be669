// A stream-k style tile loop: its position (kbc) is carried from one pass to the next and is the same in every
// thread. A fill loop nested in it stops early in some threads (`if (j >= n) break;`): that break leaves the fill
// loop, not the tile loop, whose barriers every thread reaches.
// expect: none
// kopt: launch tiles grid=(64) block=(128) args=(ids, out, 100)
__global__ void tiles(const int *ids, int *out, int n) {
  __shared__ int s_ids[256];
  int kbc = blockIdx.x * 64;
  int stop = kbc + 64;
  while (kbc < stop) {
    for (int j0 = 0; j0 < 256; j0 += 128) {
      int j = j0 + threadIdx.x;
      if (j >= n) break;
      s_ids[j] = ids[kbc + j];
    }
    __syncthreads();
    if (threadIdx.x == 0) out[kbc] = s_ids[0];
    __syncthreads();
    kbc += 8;
    kbc -= kbc % 8;
  }
}
