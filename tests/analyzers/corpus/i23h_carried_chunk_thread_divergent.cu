// The same chunked loop, but the chunk length is shrunk by each thread's own position: threads leave the loop
// after different numbers of chunks, and the ones still inside wait at a barrier the others never reach.
// expect: barrier.divergent
__global__ void i23h_chunked_sum_skewed(const float *src, float *dst, int count) {
  extern __shared__ float tile[];
  int t = threadIdx.x;
  int len = blockDim.x;
  float acc = 0.0f;
  for (int start = 0; start < count; start += len) {
    if (start + len > count) len = count - start - t;
    if (t < len) tile[t] = src[start + t];
    __syncthreads();
    for (int i = 0; i < len; i++) acc += tile[i];
    __syncthreads();
  }
  dst[blockIdx.x * blockDim.x + t] = acc;
}

void i23h_run_skewed(const float *src, float *dst, int count, int blocks) {
  i23h_chunked_sum_skewed<<<blocks, 256, 256 * sizeof(float)>>>(src, dst, count);
}
