// 2D tile indexed one column to the right; the last column of threads falls off the row.
// expect: bounds.shared
// kopt: launch shift_cols grid=(cdiv(w, 16), cdiv(h, 16)) block=(16, 16, 1) args=(img, out, w, h)
__global__ void shift_cols(const float* img, float* out, int w, int h) {
  __shared__ float tile[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = (x < w && y < h) ? img[y * w + x] : 0.f;
  __syncthreads();
  if (x < w && y < h) out[y * w + x] = tile[threadIdx.y][threadIdx.x + 1];
}
