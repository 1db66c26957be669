// The legacy texture-reference API: a file-scope texture read with tex2D.
// expect: none
// kopt: launch sample grid=(4, 4) block=(16, 16) args=(y)
texture<float, 2, cudaReadModeElementType> img;
__global__ void sample(float *y) {
  int x = blockIdx.x * 16 + threadIdx.x, r = blockIdx.y * 16 + threadIdx.y;
  y[r * 64 + x] = tex2D(img, x + 0.5f, r + 0.5f);
}
