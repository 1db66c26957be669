// The same helper instantiated with a constant of 1024 (`warp_totals<T, WIDE>`) at a 256-thread launch: its guard
// now lets the whole first warp into the second pass, whose stores at 16 + tid overlap the loads of lanes 16 and
// up, with no __syncwarp() between them (a warp-synchronous race).
// expect: warp.implicit-sync
const unsigned NUM_THREADS = 256;
const unsigned WIDE = 1024;
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
  out[blockIdx.x * NUM_THREADS + threadIdx.x] = warp_totals<T, WIDE>(v, s);
}
void run(const float *in, float *out, int blocks) { totals<<<blocks, NUM_THREADS>>>(in, out); }
