// A kernel template that launches itself from device code (dynamic parallelism) with a block set from its own
// template argument: the host launches walk<64>, whose child grids get 2 * 64 threads, past the 64-element buffer.
// expect: bounds.shared
template <int T>
__global__ void i23g_walk(float *x, int depth) {
  __shared__ float s[T];
  s[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x] * 0.5f;
  if (depth > 0 && threadIdx.x == 0 && blockIdx.x == 0)
    i23g_walk<T><<<1, 2 * T>>>(x, depth - 1);
}

void i23g_walk_all(float *x) { i23g_walk<64><<<1, 64>>>(x, 3); }
