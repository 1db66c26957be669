// Two CUB block reductions share one TempStorage with no __syncthreads() between them: the second overwrites the
// storage while slower threads may still read the first one's (CUB: "a subsequent __syncthreads() should be invoked
// if the temporary storage is to be reused").
// expect: race.shared
#include <cub/block/block_reduce.cuh>
#define BLOCK 256
__global__ void row_stats(const float *x, float *out, int n) {
  typedef cub::BlockReduce<float, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  float v = 0.f;
  for (int i = threadIdx.x; i < n; i += BLOCK) v += x[blockIdx.x * n + i];
  float total = BlockReduce(temp_storage).Sum(v);
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
