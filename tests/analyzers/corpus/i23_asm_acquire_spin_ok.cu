// A grid-wide arrival counter: each block's thread 0 adds one with a release reduction and spins on an acquire
// load until every block has arrived. Acquire and release operations are strong operations of the PTX memory
// model: the load does not race with the other blocks' reductions.
// expect: none
// kopt: launch arrive grid=(8) block=(128) args=(counter, out)
__global__ void arrive(int *counter, float *out) {
  if (threadIdx.x == 0) {
    asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(counter), "r"(1) : "memory");
    int seen = 0;
    do {
      asm volatile("ld.global.acquire.gpu.b32 %0, [%1];" : "=r"(seen) : "l"(counter) : "memory");
    } while (seen < gridDim.x);
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.f;
}
