// Every block adds its sum to a global total and then block-local thread 0 reads the total back to
// normalize: other blocks may still be adding, and the read is plain.
// expect: race.atomic-plain
// kopt: launch norm grid=(32) block=(128) args=(x, y, total)
__global__ void norm(const float *x, float *y, float *total) {
  int i = blockIdx.x * 128 + threadIdx.x;
  atomicAdd(total, x[i]);
  if (threadIdx.x == 0) y[blockIdx.x] = x[blockIdx.x * 128] / *total;
}
