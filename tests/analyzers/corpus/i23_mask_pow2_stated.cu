// The same butterfly with the stride stated as 6 (not a power of two): the mask is no modulo, two threads
// store to one element, and the race is reported at the stated value.
// expect: race.global
// kopt: assume stride == 6
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
