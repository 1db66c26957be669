// The last-block pattern as llm.c's layernorm backward writes it: every thread stores its slice of the block's
// partial sums and fences, the block synchronizes, thread 0 keeps its ticket in a shared slot, and the block
// whose ticket is gridDim.x - 1 sums every block's partials. The fence of each storing thread, then the barrier,
// then the ticket order the stores before the last block's reads.
// expect: none
// kopt: launch sum_columns grid=(64) block=(256, 1, 1) smem=(4 * C + 4) args=(x, scratch, count, out, C)
// kopt: assume C >= 1 && C <= 4096
__global__ void sum_columns(const float* x, float* scratch, unsigned* count, float* out, int C) {
  extern __shared__ float smem[];
  unsigned* ticket = (unsigned*)(smem + C);
  for (int i = threadIdx.x; i < C; i += blockDim.x) smem[i] = x[blockIdx.x * C + i];
  __syncthreads();
  for (int i = threadIdx.x; i < C; i += blockDim.x) scratch[blockIdx.x * C + i] = smem[i];
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) *ticket = atomicAdd(count, 1);
  __syncthreads();
  if (*ticket == gridDim.x - 1) {
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
      float s = 0.f;
      for (int b = 0; b < gridDim.x; b++) s += scratch[b * C + i];
      out[i] = s;
    }
  }
}
