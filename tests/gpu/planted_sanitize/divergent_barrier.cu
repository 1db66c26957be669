// Planted: the odd lanes of every warp reach the barrier, the even ones skip it (synccheck: divergent barrier, line 7).
// kopt: task vector_add
// kopt: launch divergent_barrier grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
extern "C" __global__ void divergent_barrier(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2) {
    __syncthreads();
  }
  if (i < n) c[i] = a[i] + b[i];
}
