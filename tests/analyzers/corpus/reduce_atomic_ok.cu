// Block reduction, then one atomicAdd per block.
// expect: none
// kopt: launch dot grid=(cdiv(n, 512)) block=(512, 1, 1) args=(a, b, result, n)
__global__ void dot(const float* a, const float* b, float* result, int n) {
  __shared__ float cache[512];
  int tid = threadIdx.x;
  float temp = 0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) temp += a[i] * b[i];
  cache[tid] = temp;
  __syncthreads();
  int half = blockDim.x / 2;
  while (half != 0) {
    if (tid < half) cache[tid] += cache[tid + half];
    __syncthreads();
    half /= 2;
  }
  if (tid == 0) atomicAdd(result, cache[0]);
}
