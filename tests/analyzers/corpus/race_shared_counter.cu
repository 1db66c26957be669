// Counting matches with a plain increment of a shared counter.
// expect: race.shared
// kopt: launch count_matches grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, key, counts, n)
__global__ void count_matches(const int* __restrict__ x, int key, int* __restrict__ counts, int n) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] == key) count++;
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = count;
}
