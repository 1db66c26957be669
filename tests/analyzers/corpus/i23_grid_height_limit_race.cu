// i23_grid_height_limit_ok.cu numbered blockIdx.x * 65534 + blockIdx.y: block (0, 65534) and block (1, 0) store
// to one element, in a grid 65535 blocks high.
// expect: race.global
__global__ void number(int *out) {
  if (threadIdx.x == 0) out[blockIdx.x * 65534 + blockIdx.y] = blockIdx.y;
}
