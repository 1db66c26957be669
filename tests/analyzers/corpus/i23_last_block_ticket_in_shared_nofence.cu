// The same pattern without the fence (llm.c's later layernorm backward kernels): the barrier orders the block's
// stores before thread 0's ticket only inside the block, so the last block may read another block's partials
// before they are visible.
// expect: race.global
// kopt: launch sum_columns grid=(64) block=(256, 1, 1) smem=(4 * C + 4) args=(x, scratch, count, out, C)
// kopt: assume C >= 1 && C <= 4096
__global__ void sum_columns(const float* x, float* scratch, unsigned* count, float* out, int C) {
  extern __shared__ float smem[];
  unsigned* ticket = (unsigned*)(smem + C);
  for (int i = threadIdx.x; i < C; i += blockDim.x) smem[i] = x[blockIdx.x * C + i];
  __syncthreads();
  for (int i = threadIdx.x; i < C; i += blockDim.x) scratch[blockIdx.x * C + i] = smem[i];
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
