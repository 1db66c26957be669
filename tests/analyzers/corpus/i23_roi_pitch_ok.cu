// A region of an image, its origin (x0, y0) and size (w, h) given: the thread's pixel is (x0 + ix, y0 + iy) in rows
// of `step` elements. The origin shifts every row alike, so the rows stay apart when step >= w (assumed, as for any
// pitched index).
// expect: none
__global__ void fill_roi(float *dst, unsigned step, unsigned w, unsigned h, unsigned x0, unsigned y0) {
  const int ix = blockIdx.x * blockDim.x + threadIdx.x;
  const int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix >= w || iy >= h) return;
  dst[(ix + x0) + (iy + y0) * step] = ix * 0.5f + iy;
}
