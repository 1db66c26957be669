// The same region fill where the caller states the pitch: rows one element narrower than the region, so the last
// pixel of one row's region is the first of the next row's.
// expect: race.global
// kopt: assume step + 1 == w
// kopt: launch fill_roi grid=(4, 4) block=(32, 8) args=(dst, step, w, h, x0, y0)
__global__ void fill_roi(float *dst, unsigned step, unsigned w, unsigned h, unsigned x0, unsigned y0) {
  const int ix = blockIdx.x * blockDim.x + threadIdx.x;
  const int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix >= w || iy >= h) return;
  dst[(ix + x0) + (iy + y0) * step] = ix * 0.5f + iy;
}
