// A Philox state kept in shared memory and drawn from by all threads of the block.
// expect: race.curand-state
// kopt: launch draw grid=(8) block=(64) args=(seed, out)
#include <curand_kernel.h>
__global__ void draw(unsigned long long seed, float *out) {
  __shared__ curandStatePhilox4_32_10_t st;
  if (threadIdx.x == 0) curand_init(seed, blockIdx.x, 0, &st);
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = curand_uniform(&st);
}
