// The kernel is launched only under `#ifdef USE_LIBRARY` (another build configuration, not defined here), with 64
// threads a block: each thread scales its own 8 elements of its block's 512. The launch of that configuration
// gives the block.
// expect: none
__global__ void normalize(float *work) {
  work += blockIdx.x * 512 + threadIdx.x;
  for (int i = 0; i < 8; i++) {
    work[i * 64] /= 512;
  }
}
void inverse(float *work, int batches) {
#ifdef USE_LIBRARY
  normalize<<<batches, 64>>>(work);
#else
  (void)work;
#endif
}
