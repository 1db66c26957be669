// A block queue in shared memory: the counter is q_mem[0] and the queue starts one word after it. Thread 0 resets
// the counter to 0 and every push takes a slot with atomicAdd(count, 1), so a slot is never -1 and a push never
// lands on the counter.
// expect: none
// kopt: launch push grid=(16) block=(256) args=(in, out, n)
__global__ void push(const int *in, int *out, int n) {
  __shared__ int q_mem[257];
  int *count = q_mem;
  int *queue = &q_mem[1];
  int tid = threadIdx.x;
  if (tid == 0) *count = 0;
  __syncthreads();
  int v = in[blockIdx.x * 256 + tid];
  if (v > 0) {
    int slot = atomicAdd(count, 1);
    if (slot < 256) queue[slot] = v;
  }
  __syncthreads();
  if (tid < *count) out[blockIdx.x * 256 + tid] = queue[tid];
}
