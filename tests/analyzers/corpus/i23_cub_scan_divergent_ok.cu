// Every thread takes part in the CUB block scan (threads past the end contribute 0), then the threads that hold an
// element store their offset; the block total goes to one slot per block.
// expect: none
#include <cub/block/block_scan.cuh>
#define BLOCK 128
__global__ void offsets(const int *count, int *offset, int *block_total, int n) {
  typedef cub::BlockScan<int, BLOCK> BlockScan;
  __shared__ typename BlockScan::TempStorage temp;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int c = i < n ? count[i] : 0;
  int o, total;
  BlockScan(temp).ExclusiveSum(c, o, total);
  if (i < n) offset[i] = o;
  if (threadIdx.x == 0) block_total[blockIdx.x] = total;
}
int main() {
  int *c, *o, *t, n = 1000;
  offsets<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(c, o, t, n);
}
