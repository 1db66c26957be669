// Each thread writes two neighbouring elements of its row (2x and 2x + 1, x < width): the row is 2 * width long
// and the pitched layout keeps rows apart (the stride-2 stores are uncoalesced, a performance finding).
// expect: coalescing
// kopt: launch pairs grid=(4, 64) block=(64, 4) args=(dst, w, h, pitch)
__global__ void pairs(float2 *dst, int width, int height, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float *row = (float *)dst + y * pitch;
    row[2 * x] = x;
    row[2 * x + 1] = y;
  }
}
