// A word view of an array of uint2 pairs, as a radix sort loads a partial tile: odd threads store the two words
// of their own pair one at a time (words 2t and 2t+1), even threads store their pair whole. No two threads share
// a byte, although thread 1's word index 2 equals thread 2's pair index 2.
// expect: bank-conflict(2)
// kopt: launch load_tile grid=(cdiv(n, 256)) block=(256, 1, 1) args=(keys, out, n)
__global__ void load_tile(const uint2* keys, unsigned* out, int n) {
  __shared__ uint2 pairs[256];
  unsigned* words = (unsigned*)pairs;
  int i = blockIdx.x * 256 + threadIdx.x;
  uint2 v = i < n ? keys[i] : make_uint2(0u, 0u);
  if (threadIdx.x & 1) {
    words[2 * threadIdx.x] = v.x;
    words[2 * threadIdx.x + 1] = v.y;
  } else {
    pairs[threadIdx.x] = v;
  }
  __syncthreads();
  if (i < n) out[i] = words[threadIdx.x];
}
