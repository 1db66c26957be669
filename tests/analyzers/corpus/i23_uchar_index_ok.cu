// A byte-valued index (unsigned char: 0..255, as C converts it) into a 256-entry table at the start of dynamic
// shared memory: it never reaches the per-thread slots stored after the table.
// expect: none
// kopt: launch byte_lookup grid=(cdiv(n, 256)) block=(256, 1, 1) smem=(2048) args=(table, data, out, n)
__global__ void byte_lookup(const unsigned* table, const unsigned* data, unsigned* out, int n) {
  extern __shared__ unsigned sm[];
  unsigned* lut = sm;
  unsigned* staged = sm + 256;
  const int i = blockIdx.x * 256 + threadIdx.x;
  lut[threadIdx.x] = table[threadIdx.x];
  __syncthreads();
  const unsigned v = i < n ? data[i] : 0u;
  const unsigned char b = (unsigned char)(v >> 8);
  staged[threadIdx.x] = lut[b];
  if (i < n) out[i] = staged[threadIdx.x];
}
