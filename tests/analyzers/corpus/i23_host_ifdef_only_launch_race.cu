// The kernel is launched only under `#ifdef USE_LIBRARY` (another build configuration, not defined here), with 128
// threads a block while it strides by 64: thread 64 (i = 0) and thread 0 (i = 1) of a block scale one element.
// expect: race.global
__global__ void normalize(float *work) {
  work += blockIdx.x * 512 + threadIdx.x;
  for (int i = 0; i < 8; i++) {
    work[i * 64] /= 512;
  }
}
void inverse(float *work, int batches) {
#ifdef USE_LIBRARY
  normalize<<<batches, 128>>>(work);
#else
  (void)work;
#endif
}
