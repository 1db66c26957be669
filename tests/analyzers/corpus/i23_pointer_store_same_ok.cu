// Every thread records the same buffer addresses (parameters, a by-value struct's field, a __device__ array) in a
// table other kernels read: one value per word, no race.
// expect: none
// kopt: launch init grid=(8) block=(128) args=(bufs, a, b, s, n)
struct Pair { float *lo, *hi; };
__device__ float scratch[256];
__global__ void init(float **bufs, float *a, float *b, Pair s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    bufs[0] = a;
    bufs[1] = b + 16;
    bufs[2] = s.hi;
    bufs[3] = scratch;
  }
}
