// Every thread initializes the same state element (index 0) instead of its own.
// expect: race.curand-state
// kopt: launch setup grid=(4) block=(256) args=(states, seed)
#include <curand_kernel.h>
__global__ void setup(curandState *states, unsigned long long seed) {
  int i = blockIdx.x * 256 + threadIdx.x;
  curand_init(seed, i, 0, &states[0]);
}
