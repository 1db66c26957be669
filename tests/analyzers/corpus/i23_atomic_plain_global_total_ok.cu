// Summing into a global total with atomics; the normalization happens in a later launch, so this kernel
// only updates the total.
// expect: none
// kopt: launch accumulate grid=(32) block=(128) args=(x, total)
__global__ void accumulate(const float *x, float *total) {
  int i = blockIdx.x * 128 + threadIdx.x;
  atomicAdd(total, x[i]);
}
