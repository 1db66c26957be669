// A radix-2 butterfly: `pos & (stride - 1)` is the modulo idiom, written for a power-of-two stride (the caller
// halves a power of two each pass). Two threads meet only for a stride that is not a power of two, which the
// kernel does not state: a precondition note.
// expect: race.precondition
// kopt: launch butterfly grid=(64) block=(256) args=(d, stride)
__global__ void butterfly(float *d, int stride) {
  int pos = blockIdx.x * blockDim.x + threadIdx.x;
  int lo = pos & (stride - 1);
  int i0 = ((pos - lo) << 1) + lo;
  int i1 = i0 + stride;
  float a = d[i0];
  float b = d[i1];
  d[i0] = a + b;
  d[i1] = a - b;
}
