// One generator state per block, used by every thread of the block at once.
// expect: race.curand-state
// kopt: launch noise grid=(16) block=(128) args=(states, out)
#include <curand_kernel.h>
__global__ void noise(curandState *states, float *out) {
  int i = blockIdx.x * 128 + threadIdx.x;
  out[i] = curand_normal(&states[blockIdx.x]);
}
