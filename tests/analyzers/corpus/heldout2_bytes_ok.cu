// Byte-wide shared accesses: four lanes share a word, which is a broadcast, not a conflict.
// expect: none
// kopt: launch xor_bytes grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, key, n)
__global__ void xor_bytes(unsigned char* x, unsigned char key, int n) {
  __shared__ unsigned char s[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  s[t] = i < n ? x[i] : 0;
  __syncthreads();
  if (i < n) x[i] = s[t] ^ key;
}
