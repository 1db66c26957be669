// The same prefetching loop without the barrier between a pass's reads and its store of the next tile: a thread
// overwrites the element its neighbour is still reading.
// expect: race.shared
__global__ void i23h_prefetch_sum_early(const float *in, float *out) {
  __shared__ float buf[128];
  float acc = 0.0f;
  buf[threadIdx.x] = in[blockIdx.x * 512 + threadIdx.x];
  __syncthreads();
  for (int s = 0; s < 4; s++) {
    float next = 0.0f;
    if (s < 3) next = in[blockIdx.x * 512 + (s + 1) * 128 + threadIdx.x];
    acc += buf[(threadIdx.x + 1) % 128];
    if (s < 3) {
      buf[threadIdx.x] = next;
      __syncthreads();
    }
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}

void i23h_run_prefetch_early(const float *in, float *out, int blocks) {
  i23h_prefetch_sum_early<<<blocks, 128>>>(in, out);
}
