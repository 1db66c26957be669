// Threads count their positive inputs in a shared counter and thread 0 reads the counter while other
// threads may still be adding to it: no barrier between the atomics and the plain read.
// expect: race.atomic-plain
// kopt: launch count_pos grid=(16) block=(256) args=(x, out)
__global__ void count_pos(const float *x, int *out) {
  __shared__ int cnt;
  if (threadIdx.x == 0) cnt = 0;
  __syncthreads();
  if (x[blockIdx.x * 256 + threadIdx.x] > 0.f) atomicAdd(&cnt, 1);
  if (threadIdx.x == 0) out[blockIdx.x] = cnt;
}
