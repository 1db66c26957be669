// A word view of an array of uint2 pairs: odd threads store a whole pair, even threads store one word, at the
// same index of their own view. Thread 2's word 2 is the low half of pair 1, which thread 1 stores.
// expect: race.shared
// kopt: launch load_pairs grid=(cdiv(n, 256)) block=(256, 1, 1) args=(keys, out, n)
__global__ void load_pairs(const uint2* keys, unsigned* out, int n) {
  __shared__ uint2 pairs[256];
  unsigned* words = (unsigned*)pairs;
  int i = blockIdx.x * 256 + threadIdx.x;
  if (threadIdx.x & 1)
    pairs[threadIdx.x] = i < n ? keys[i] : make_uint2(0u, 0u);
  else
    words[threadIdx.x] = 0u;
  __syncthreads();
  if (i < n) out[i] = words[threadIdx.x];
}
