// A tile loop of four passes that prefetches the next tile into registers and stores it to shared memory behind a
// barrier, except on the last pass, which has nothing to prefetch: an iteration runs two barriers, the last one
// barrier. Reads of a pass and the next pass's store are always a barrier apart.
// expect: none
__global__ void i23h_prefetch_sum(const float *in, float *out) {
  __shared__ float buf[128];
  float acc = 0.0f;
  buf[threadIdx.x] = in[blockIdx.x * 512 + threadIdx.x];
  __syncthreads();
  for (int s = 0; s < 4; s++) {
    float next = 0.0f;
    if (s < 3) next = in[blockIdx.x * 512 + (s + 1) * 128 + threadIdx.x];
    acc += buf[(threadIdx.x + 1) % 128];
    __syncthreads();
    if (s < 3) {
      buf[threadIdx.x] = next;
      __syncthreads();
    }
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}

void i23h_run_prefetch(const float *in, float *out, int blocks) {
  i23h_prefetch_sum<<<blocks, 128>>>(in, out);
}
