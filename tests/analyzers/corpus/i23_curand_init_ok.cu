// Each thread initializes its own generator state.
// expect: none
// kopt: launch setup grid=(4) block=(256) args=(states, seed)
#include <curand_kernel.h>
__global__ void setup(curandState *states, unsigned long long seed) {
  int i = blockIdx.x * 256 + threadIdx.x;
  curand_init(seed, i, 0, &states[i]);
}
