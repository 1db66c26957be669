// The tile walk of i23c_tiles_divmod_ok.cu smoothing pixels in place: a thread reads its left neighbour, which
// another thread (the previous column, possibly of another tile and block) writes at the same time.
// expect: race.global
__global__ void smooth(float *img, int imageW, int imageH, int tilesX, int tiles) {
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int x = 16 * (tile % tilesX) + threadIdx.x;
    int y = 16 * (tile / tilesX) + threadIdx.y;
    if (x < imageW && y < imageH) {
      int pixel = imageW * y + x;
      float left = x > 0 ? img[pixel - 1] : 0.0f;
      img[pixel] = 0.5f * (img[pixel] + left);
    }
  }
}
void run(float *img, int imageW, int imageH, int blocks) {
  int tilesX = (imageW + 15) / 16;
  smooth<<<blocks, dim3(16, 16)>>>(img, imageW, imageH, tilesX, tilesX * ((imageH + 15) / 16));
}
