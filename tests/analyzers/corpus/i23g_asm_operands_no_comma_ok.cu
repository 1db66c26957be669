// Inline asm whose two input operands have no comma between them (nvcc accepts `"r"(v) "l"(p)`; clang does not):
// the kernel is still read by libclang. Each thread releases its own flag.
// expect: none
__global__ void i23g_release_flags(unsigned char *flags) {
  unsigned int v = 1;
  unsigned char *p = flags + blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(v) "l"(p) : "memory");
}
