// The smoothing of i23c_tiles_neighbour_inplace.cu written to a separate output image: neighbours are only read.
// expect: none
__global__ void smooth(const float *img, float *out, int imageW, int imageH, int tilesX, int tiles) {
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int x = 16 * (tile % tilesX) + threadIdx.x;
    int y = 16 * (tile / tilesX) + threadIdx.y;
    if (x < imageW && y < imageH) {
      int pixel = imageW * y + x;
      float left = x > 0 ? img[pixel - 1] : 0.0f;
      out[pixel] = 0.5f * (img[pixel] + left);
    }
  }
}
void run(const float *img, float *out, int imageW, int imageH, int blocks) {
  int tilesX = (imageW + 15) / 16;
  smooth<<<blocks, dim3(16, 16)>>>(img, out, imageW, imageH, tilesX, tilesX * ((imageH + 15) / 16));
}
