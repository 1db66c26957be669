// The same region fill where the caller states the pitch: rows one element narrower than the region, so the last
// pixel of one row's region is the first of the next row's.
// expect: race.global
// kopt: assume step + 1 == w
__global__ void fill_roi(float *dst, unsigned step, unsigned w, unsigned h, unsigned x0, unsigned y0) {
  const int ix = blockIdx.x * blockDim.x + threadIdx.x;
  const int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix >= w || iy >= h) return;
  dst[(ix + x0) + (iy + y0) * step] = ix * 0.5f + iy;
}
