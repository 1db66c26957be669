// A block-size template dispatched by a switch in host code, its tree reduction missing the barrier between
// levels: the missing barrier is found under the blocks the switch's cases launch (within one warp
// for the 64-thread case).
// expect: sync.missing, warp.implicit-sync
template <unsigned BS>
__global__ void tree_sum_racy(const float *in, float *out) {
  __shared__ float s[BS];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * BS + t];
  __syncthreads();
  for (unsigned w = BS / 2; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

void sum_blocks(const float *in, float *out, int blocks, int threads) {
  dim3 block(threads, 1, 1);
  switch (threads) {
  case 256: tree_sum_racy<256><<<blocks, block>>>(in, out); break;
  case 128: tree_sum_racy<128><<<blocks, block>>>(in, out); break;
  case 64: tree_sum_racy<64><<<blocks, block>>>(in, out); break;
  }
}
