// Thread 0 clears a shared flag before a loop whose body starts with a barrier, but the loop runs `rounds` times and
// rounds may be 0: then no barrier orders the clear before the other threads' read after the loop.
// expect: sync.missing
__global__ void settle(int *out, const int *x, int n, int rounds) {
  __shared__ bool any;
  if (threadIdx.x == 0) any = false;
  for (int r = 0; r < rounds; r++) {
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      if (x[blockIdx.x * n + i] < r) any = true;
    __syncthreads();
  }
  if (any) out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
int main() {
  int *o, *x;
  settle<<<8, 128>>>(o, x, 1000, 0);
}
