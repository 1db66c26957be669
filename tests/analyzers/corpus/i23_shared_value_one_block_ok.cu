// One block reduces into shared memory; after the last barrier every thread stores the block's total (one value,
// read from the same shared element) to the single output: the same value, so no race.
// expect: none
__global__ void total(const long *x, long *out, int n) {
  __shared__ long part[32];
  long s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int i = 16; i > 0; i /= 2) {
    if (threadIdx.x < i) part[threadIdx.x] += part[threadIdx.x + i];
    __syncthreads();
  }
  out[0] = part[0];
}
int main() {
  long *x, *out;
  total<<<1, 32>>>(x, out, 1000);
}
