// A helper's template argument is a file-scope constant (`scan<T, NUM_THREADS>`): its guard `tid < N / 32` keeps the
// second pass to the first warp's eight threads, which read and write slots no other thread touches then.
// expect: none
const unsigned NUM_THREADS = 256;
template <class T, unsigned N>
__device__ T warp_totals(T v, volatile T *s) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 31) s[warp] = v;
  __syncthreads();
  if (threadIdx.x < N / 32) {
    T t = s[threadIdx.x];
    s[threadIdx.x + 16] = t * 2;
  }
  __syncthreads();
  return s[16 + warp];
}
template <class T>
__global__ void totals(const T *in, T *out) {
  __shared__ T s[64];
  T v = in[blockIdx.x * NUM_THREADS + threadIdx.x];
  out[blockIdx.x * NUM_THREADS + threadIdx.x] = warp_totals<T, NUM_THREADS>(v, s);
}
void run(const float *in, float *out, int blocks) { totals<<<blocks, NUM_THREADS>>>(in, out); }
