// One generator state per thread, copied to a register, advanced and stored back.
// expect: none
// kopt: launch noise grid=(16) block=(128) args=(states, out)
#include <curand_kernel.h>
__global__ void noise(curandState *states, float *out) {
  int i = blockIdx.x * 128 + threadIdx.x;
  curandState local = states[i];
  out[i] = curand_normal(&local);
  states[i] = local;
}
