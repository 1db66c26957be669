// Histogram with a plain increment: two threads with the same byte value lose an update.
// expect: race.global
// kopt: launch histo grid=(cdiv(n, 256)) block=(256, 1, 1) args=(data, bins, n)
__global__ void histo(const unsigned char* __restrict__ data, unsigned int* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bins[data[i]]++;
}
