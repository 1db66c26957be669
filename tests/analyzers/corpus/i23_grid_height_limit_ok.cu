// One element per block, numbered blockIdx.x * 65535 + blockIdx.y: distinct, because no grid is more than 65535
// blocks high or deep (two blocks would meet only at blockIdx.y = 65535). No launch is given.
// expect: none
__global__ void number(int *out) {
  if (threadIdx.x == 0) out[blockIdx.x * 65535 + blockIdx.y] = blockIdx.y;
}
