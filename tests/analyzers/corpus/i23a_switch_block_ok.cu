// A block-size template dispatched by a switch in host code: each case launches the instantiation whose shared
// tree matches its block, so the reduction is race-free under every launch the host makes.
// expect: none
template <unsigned BS>
__global__ void tree_sum(const float *in, float *out) {
  __shared__ float s[BS];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * BS + t];
  __syncthreads();
  for (unsigned w = BS / 2; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

void sum_blocks(const float *in, float *out, int blocks, int threads) {
  dim3 block(threads, 1, 1);
  switch (threads) {
  case 256: tree_sum<256><<<blocks, block>>>(in, out); break;
  case 128: tree_sum<128><<<blocks, block>>>(in, out); break;
  case 64: tree_sum<64><<<blocks, block>>>(in, out); break;
  }
}
