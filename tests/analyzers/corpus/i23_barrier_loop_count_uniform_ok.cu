// i23_barrier_loop_count_divergent.cu with the count read once per block: thread 0 reads it into shared memory and
// every thread takes it from there after a barrier, so every thread runs the loop equally often.
// expect: none
// kopt: launch drain grid=(8) block=(128) args=(counts, out)
__global__ void drain(int *counts, float *out) {
  __shared__ float s[128];
  __shared__ int rounds_s;
  int tid = threadIdx.x;
  if (tid == 0) rounds_s = counts[blockIdx.x];
  __syncthreads();
  int rounds = rounds_s;
  float acc = 0.f;
  for (int r = 0; r < rounds; r++) {
    s[tid] = acc + r;
    __syncthreads();
    acc += s[(tid + 1) % 128];
    __syncthreads();
  }
  out[blockIdx.x * 128 + tid] = acc + s[127 - tid];
}
