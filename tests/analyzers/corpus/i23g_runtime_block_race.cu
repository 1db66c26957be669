// A block size read at run time (the command line): no constant block, so the checks are made for every block
// size at once; every thread of a block stores its index to the block's one slot, a race for any block of two or
// more threads.
// expect: race.global
#include <cstdlib>
__global__ void i23g_block_label_racy(int *label) {
  label[blockIdx.x] = threadIdx.x;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 128;
  int *label = 0;
  i23g_block_label_racy<<<64, threads>>>(label);
  return 0;
}
