// Thread 0 clears a shared flag before a do-while whose body starts with a barrier: the body runs at least once, so
// the barrier orders the clear before every thread's read after the loop.
// expect: none
__global__ void settle(int *out, const int *x, int n) {
  __shared__ bool again, any;
  if (threadIdx.x == 0) any = false;
  do {
    __syncthreads();
    if (threadIdx.x == 0) again = false;
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      if (x[blockIdx.x * n + i] < 0) { again = true; any = true; }
    __syncthreads();
  } while (again);
  if (any) out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
int main() {
  int *o, *x;
  settle<<<8, 128>>>(o, x, 1000);
}
