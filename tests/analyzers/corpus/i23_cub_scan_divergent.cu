// A CUB block scan called only by the threads that hold an element: the scan waits at a block barrier, which the
// other threads never reach (with n not a multiple of the block, the last block hangs or computes garbage).
// expect: barrier.divergent
#include <cub/block/block_scan.cuh>
#define BLOCK 128
__global__ void offsets(const int *count, int *offset, int n) {
  typedef cub::BlockScan<int, BLOCK> BlockScan;
  __shared__ typename BlockScan::TempStorage temp;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) {
    int o;
    BlockScan(temp).ExclusiveSum(count[i], o);
    offset[i] = o;
  }
}
int main() {
  int *c, *o, n = 1000;
  offsets<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(c, o, n);
}
