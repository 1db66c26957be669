// The counting kernel with a barrier between the atomic updates and the read of the total.
// expect: none
// kopt: launch count_pos grid=(16) block=(256) args=(x, out)
__global__ void count_pos(const float *x, int *out) {
  __shared__ int cnt;
  if (threadIdx.x == 0) cnt = 0;
  __syncthreads();
  if (x[blockIdx.x * 256 + threadIdx.x] > 0.f) atomicAdd(&cnt, 1);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = cnt;
}
