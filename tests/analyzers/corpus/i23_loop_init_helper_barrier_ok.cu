// A loop's first task comes from a helper in which one thread fetches it into shared memory and every thread reads
// it after a barrier (a dynamic work queue's first fetch): the loop's initialization runs once, and its store and
// the reads after the barrier are ordered.
// expect: none
// kopt: launch work grid=(64) block=(128) args=(queue, out, 1000)
__device__ int first_task(int *slot, int *queue) {
  if (threadIdx.x == 0) slot[0] = atomicAdd(queue, 1);
  __syncthreads();
  return slot[0];
}

__global__ void work(int *queue, float *out, int n) {
  __shared__ int slot[1];
  for (int t = first_task(slot, queue); t < n; t += 1000000) {
    out[t * 128 + threadIdx.x] = t;
  }
}
