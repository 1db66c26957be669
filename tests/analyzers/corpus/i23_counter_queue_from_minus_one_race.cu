// The queue of i23_counter_queue_ok.cu with its counter reset to -1: the first push takes slot -1, which is the
// counter itself, while other threads add to it.
// expect: race.shared
// kopt: launch push grid=(16) block=(256) args=(in, out, n)
__global__ void push(const int *in, int *out, int n) {
  __shared__ int q_mem[257];
  int *count = q_mem;
  int *queue = &q_mem[1];
  int tid = threadIdx.x;
  if (tid == 0) *count = -1;
  __syncthreads();
  int v = in[blockIdx.x * 256 + tid];
  if (v > 0) {
    int slot = atomicAdd(count, 1);
    if (slot < 256) queue[slot] = v;
  }
  __syncthreads();
  if (tid + 1 < *count) out[blockIdx.x * 256 + tid] = queue[tid];
}
