// Dynamic parallelism: the child grid a parent kernel launches from device code reads a shared neighbour
// before the write of it is fenced by a barrier; the child is analyzed under the block of that launch.
// expect: sync.missing
__global__ void shift_left(float *x) {
  __shared__ float s[128];
  s[threadIdx.x] = x[blockIdx.x * 128 + threadIdx.x];
  x[blockIdx.x * 128 + threadIdx.x] = s[(threadIdx.x + 1) % 128];
}

__global__ void launcher(float *x, int chunks) {
  if (threadIdx.x == 0 && blockIdx.x == 0) shift_left<<<chunks, 128>>>(x);
}

void run(float *x, int chunks) { launcher<<<1, 32>>>(x, chunks); }
