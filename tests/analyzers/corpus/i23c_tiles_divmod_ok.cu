// Blocks walk a grid of 16x16 tiles (tile = blockIdx.x + k * gridDim.x; tile row = tile / tilesX, tile column =
// tile % tilesX): quotient and remainder by one divisor together name one tile, so pixels never repeat. The byte
// stores of one channel are 4 bytes apart: uncoalesced.
// expect: coalescing
__global__ void shade(uchar4 *dst, int imageW, int imageH, int tilesX, int tiles) {
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int x = 16 * (tile % tilesX) + threadIdx.x;
    int y = 16 * (tile / tilesX) + threadIdx.y;
    if (x < imageW && y < imageH) {
      int pixel = imageW * y + x;
      dst[pixel].x = (unsigned char)x;
      dst[pixel].y = (unsigned char)y;
    }
  }
}
void run(uchar4 *dst, int imageW, int imageH, int blocks) {
  int tilesX = (imageW + 15) / 16;
  shade<<<blocks, dim3(16, 16)>>>(dst, imageW, imageH, tilesX, tilesX * ((imageH + 15) / 16));
}
