// The one-block layer of i23_one_block_unlaunched_ok.cu with a race inside the block: threads t and t + 1 of a
// pair accumulate into one element. Analyzed as one block (no launch found, no blockIdx), the race is still found.
// expect: race.global
__global__ void feed_forward_pairs(float *zs, const float *weights, const float *acts, int w_off, int inputs) {
  for (int i = 0; i < inputs; ++i)
    zs[threadIdx.x / 2] += weights[w_off + i * blockDim.x + threadIdx.x] * acts[i];
}
