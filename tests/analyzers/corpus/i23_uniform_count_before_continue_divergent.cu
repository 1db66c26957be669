// A count carried across a loop's iterations and updated after a warp may `continue` on `!__any_sync(...)`: warps
// that skip the update hold another count than the rest, and the barrier under `if (found < 3)` is reached by
// some warps and not others.
// expect: barrier.divergent
#define THREADS 256
__global__ void first_hits(const float *x, int n, float *hits) {
  __shared__ float slots[3];
  int found = 0;
  for (int i = threadIdx.x; i < n; i += THREADS) {
    bool hit = x[blockIdx.x * n + i] > 0.0f;
    if (found < 3) {
      int total = __syncthreads_count(hit);
      if (threadIdx.x == 0 && total > 0) slots[found] = x[blockIdx.x * n + i];
      __syncthreads();
      if (!__any_sync(0xffffffffu, hit)) continue;
      found += total;
    }
    hits[blockIdx.x * n + i] = 1.0f;
  }
}
void run(const float *x, float *hits) {
  first_hits<<<64, THREADS>>>(x, 4096, hits);
}
