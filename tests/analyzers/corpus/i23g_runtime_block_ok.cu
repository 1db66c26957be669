// A block size read at run time (the command line): no constant block, so the checks are made for every block
// size at once; one thread of each block stores the block's slot, race-free whatever block the run picks.
// expect: none
#include <cstdlib>
__global__ void i23g_block_label(int *label) {
  if (threadIdx.x == 0) label[blockIdx.x] = blockDim.x;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 128;
  int *label = 0;
  i23g_block_label<<<64, threads>>>(label);
  return 0;
}
