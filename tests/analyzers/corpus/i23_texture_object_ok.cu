// Reads through a texture object into a shared tile, barrier, then a mirrored write.
// expect: none
// kopt: launch mirror grid=(8) block=(128) args=(tex, y)
__global__ void mirror(cudaTextureObject_t tex, float *y) {
  __shared__ float s[128];
  s[threadIdx.x] = tex1Dfetch<float>(tex, blockIdx.x * 128 + threadIdx.x);
  __syncthreads();
  y[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];
}
