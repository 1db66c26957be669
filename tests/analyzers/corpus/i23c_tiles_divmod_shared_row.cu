// The tile walk of i23c_tiles_divmod_ok.cu, but every thread of a tile row adds into one per-row sum with a plain
// +=: threads of different blocks (tiles of one row) update the same element.
// expect: race.global
__global__ void row_sums(const float *src, float *sums, int imageW, int imageH, int tilesX, int tiles) {
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int x = 16 * (tile % tilesX) + threadIdx.x;
    int y = 16 * (tile / tilesX) + threadIdx.y;
    if (x < imageW && y < imageH) sums[y] += src[imageW * y + x];
  }
}
void run(const float *src, float *sums, int imageW, int imageH, int blocks) {
  int tilesX = (imageW + 15) / 16;
  row_sums<<<blocks, dim3(16, 16)>>>(src, sums, imageW, imageH, tilesX, tilesX * ((imageH + 15) / 16));
}
