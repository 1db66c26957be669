// The last-block pattern with the comparison written the other way round (`last == atomicInc(...)`, the last index
// kept in a variable, as Barnes-Hut's bounding-box kernel does): thread 0 of each block publishes its partial,
// fences and takes a ticket; the block whose ticket equals gridDim.x - 1 combines them.
// expect: none
#include <cuda_runtime.h>
__global__ void bounds(const float *x, float *partial, unsigned *count, float *out, int n) {
  __shared__ float part[128];
  float m = -1e30f;
  for (int i = blockIdx.x * 128 + threadIdx.x; i < n; i += 128 * gridDim.x) m = fmaxf(m, x[i]);
  part[threadIdx.x] = m;
  for (int s = 64; s > 0; s /= 2) {
    __syncthreads();
    if (threadIdx.x < s) part[threadIdx.x] = m = fmaxf(m, part[threadIdx.x + s]);
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = m;
    __threadfence();
    unsigned last = gridDim.x - 1;
    if (last == atomicInc(count, last)) {
      for (unsigned b = 0; b <= last; b++) m = fmaxf(m, partial[b]);
      out[0] = m;
    }
  }
}
int main() {
  float *x, *p, *o;
  unsigned *c;
  bounds<<<32, 128>>>(x, p, c, o, 100000);
}
