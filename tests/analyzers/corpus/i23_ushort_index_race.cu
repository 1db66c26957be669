// The same lookup with a 16-bit index (unsigned short: 0..65535): it can read past the table into the slots the
// other threads are storing in the same barrier interval.
// expect: race.shared
// kopt: launch short_lookup grid=(cdiv(n, 256)) block=(256, 1, 1) smem=(2048) args=(table, data, out, n)
__global__ void short_lookup(const unsigned* table, const unsigned* data, unsigned* out, int n) {
  extern __shared__ unsigned sm[];
  unsigned* lut = sm;
  unsigned* staged = sm + 256;
  const int i = blockIdx.x * 256 + threadIdx.x;
  lut[threadIdx.x] = table[threadIdx.x];
  __syncthreads();
  const unsigned v = i < n ? data[i] : 0u;
  const unsigned short b = (unsigned short)(v >> 8);
  staged[threadIdx.x] = lut[b];
  if (i < n) out[i] = staged[threadIdx.x];
}
