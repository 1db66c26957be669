// Run lengths of a block's sorted digits: a thread at a boundary (d[t] != d[t - 1]) turns the start recorded for
// the previous digit into its run's length. In sorted digits each value ends once, so no two threads update one
// entry; kopt cannot see the data, so the pairs are the note race.precondition naming the order.
// expect: race.precondition
// kopt: launch run_lengths grid=(blocks) block=(256) args=(digits, lengths, blocks)
__global__ void run_lengths(const unsigned *digits, unsigned *lengths, int blocks) {
  __shared__ unsigned d[256];
  __shared__ unsigned len[16];
  int t = threadIdx.x;
  d[t] = digits[blockIdx.x * 256 + t] & 15;
  if (t < 16) len[t] = 0;
  __syncthreads();
  if (t > 0 && d[t] != d[t - 1]) len[d[t]] = t;
  __syncthreads();
  if (t > 0 && d[t] != d[t - 1]) len[d[t - 1]] = t - len[d[t - 1]];
  __syncthreads();
  if (t < 16) lengths[blockIdx.x * 16 + t] = len[t];
}
