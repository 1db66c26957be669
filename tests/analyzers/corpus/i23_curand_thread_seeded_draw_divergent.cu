// i23_curand_block_seeded_draw_ok.cu seeded with the thread's global index: each thread draws its own numbers, so
// a barrier under a test of the draw is reached by some threads of a block and not others.
// expect: barrier.divergent
// kopt: launch sample grid=(8) block=(256) args=(probs, out, seed, 1024)
#include <curand_kernel.h>
__global__ void sample(const float *probs, int *out, unsigned long long seed, int n) {
  __shared__ float part[256];
  curandStatePhilox4_32_10_t state;
  curand_init(seed, blockIdx.x * 256 + threadIdx.x, 0, &state);
  float u = curand_uniform(&state);
  float q = u;
  for (int round = 0; round < 4; ++round) {
    float v = curand_uniform(&state) * q;
    if (v > 0.5f) {
      part[threadIdx.x] = probs[blockIdx.x * n + threadIdx.x];
      __syncthreads();
      if (threadIdx.x == 0) out[blockIdx.x] = (int)(part[255] * n);
      __syncthreads();
    }
  }
}
