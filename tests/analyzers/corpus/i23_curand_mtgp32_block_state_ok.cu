// One MTGP32 state per block, drawn from by every thread of the block: the generator is built for this
// (each thread of a round takes its own element of the block's state).
// expect: none
// kopt: launch noise grid=(16) block=(256) args=(states, out)
#include <curand_kernel.h>
__global__ void noise(curandStateMtgp32 *states, float *out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  out[i] = curand_uniform(&states[blockIdx.x]);
}
