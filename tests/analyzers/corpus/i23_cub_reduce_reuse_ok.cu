// Two CUB block reductions share one TempStorage with a __syncthreads() between them; thread 0 stores the results
// (only thread 0's return value is the block's).
// expect: none
#include <cub/cub.cuh>
#define BLOCK 256
__global__ void row_stats(const float *x, float *out, int n) {
  typedef cub::BlockReduce<float, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  float v = 0.f;
  for (int i = threadIdx.x; i < n; i += BLOCK) v += x[blockIdx.x * n + i];
  float total = BlockReduce(temp_storage).Sum(v);
  __syncthreads();
  float largest = BlockReduce(temp_storage).Reduce(v, cub::Max());
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = total;
    out[2 * blockIdx.x + 1] = largest;
  }
}
int main() {
  float *x, *out;
  row_stats<<<100, BLOCK>>>(x, out, 1000);
}
