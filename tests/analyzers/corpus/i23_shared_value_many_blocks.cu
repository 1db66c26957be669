// Each block reduces its slice into shared memory and every thread stores its block's total to the one output:
// blocks store different totals to out[0].
// expect: race.global
__global__ void total(const long *x, long *out, int n) {
  __shared__ long part[32];
  long s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[blockIdx.x * n + i];
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
  total<<<8, 32>>>(x, out, 1000);
}
