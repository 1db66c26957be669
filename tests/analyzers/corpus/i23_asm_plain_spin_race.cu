// As i23_asm_acquire_spin_ok, but the spin reads the counter with a plain (weak) load: it races with the other
// blocks' atomic reductions, and nothing orders what they wrote before arriving.
// expect: race.atomic-plain
// kopt: launch arrive grid=(8) block=(128) args=(counter, out)
__global__ void arrive(int *counter, float *out) {
  if (threadIdx.x == 0) {
    asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(counter), "r"(1) : "memory");
    int seen = 0;
    do {
      asm volatile("ld.global.b32 %0, [%1];" : "=r"(seen) : "l"(counter) : "memory");
    } while (seen < gridDim.x);
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.f;
}
