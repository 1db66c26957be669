// A block-wide count carried across a loop's iterations: every thread adds the block's vote count (a barrier's
// `__syncthreads_count`) before a warp may `continue` on `!__any_sync(...)`, so the count is the same in every
// thread and the barrier under `if (found < 3)` is reached by all threads or none.
// expect: none
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
      found += total;
    }
    if (!__any_sync(0xffffffffu, hit)) continue;
    hits[blockIdx.x * n + i] = 1.0f;
  }
}
void run(const float *x, float *hits) {
  first_hits<<<64, THREADS>>>(x, 4096, hits);
}
