// The shared Philox state is used by thread 0 only, which then publishes the draw to the block.
// expect: none
// kopt: launch draw grid=(8) block=(64) args=(seed, out)
#include <curand_kernel.h>
__global__ void draw(unsigned long long seed, float *out) {
  __shared__ curandStatePhilox4_32_10_t st;
  __shared__ float r;
  if (threadIdx.x == 0) {
    curand_init(seed, blockIdx.x, 0, &st);
    r = curand_uniform(&st);
  }
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = r;
}
