// A spin-wait on the PTX global timer read through inline asm (a special register, `%globaltimer`), then a
// per-thread store: no hazard.
// expect: none
__device__ __forceinline__ unsigned long long timer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__global__ void wait_then_mark(int *flags, unsigned long long ns) {
  unsigned long long start = timer_ns();
  while (timer_ns() - start < ns) {
  }
  flags[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

void run(int *flags) { wait_then_mark<<<4, 256>>>(flags, 1000); }
