// Each thread stores its element at i (interleaved layout) or at i * n (one element per system of n), as the flag
// picks. The threads meet only when n is 0, a stride no caller passes: a precondition note naming n >= 1, as for a
// stride outside a conditional.
// expect: race.precondition
// kopt: launch pairs grid=(64) block=(128) args=(x, n, count, interleaved)
__global__ void pairs(float *x, int n, int count, bool interleaved) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  int base = interleaved ? i : i * n;
  x[base] = (float)i;
}
