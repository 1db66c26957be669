// The texture-object kernel without its barrier.
// expect: sync.missing
// kopt: launch mirror grid=(8) block=(128) args=(tex, y)
__global__ void mirror(cudaTextureObject_t tex, float *y) {
  __shared__ float s[128];
  s[threadIdx.x] = tex1Dfetch<float>(tex, blockIdx.x * 128 + threadIdx.x);
  y[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];
}
