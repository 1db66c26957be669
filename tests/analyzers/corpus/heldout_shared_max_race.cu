// Block maximum kept in one shared scalar, updated with a plain compare-and-store.
// expect: race.shared
// kopt: launch block_max grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, out, n)
__global__ void block_max(const float* __restrict__ x, float* __restrict__ out, int n) {
  __shared__ float mx;
  if (threadIdx.x == 0) mx = -INFINITY;
  __syncthreads();
  int i = blockIdx.x * 256 + threadIdx.x;
  float v = i < n ? x[i] : -INFINITY;
  if (v > mx) mx = v;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = mx;
}
