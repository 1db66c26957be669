// Each thread stores at i * (gap + 1): distinct for every gap >= 0. Threads meet only when gap is -1 (a
// negative gap, which no caller of such a kernel passes): a precondition note naming gap >= 0.
// expect: race.precondition, coalescing
// kopt: launch spread grid=(16) block=(128) args=(out, gap)
__global__ void spread(float *out, int gap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * (gap + 1)] = (float)threadIdx.x;
}
