// The same kernel with its column guard off by one (j <= nj): at nj == NJ the thread at j == NJ of row i stores to
// the first element of row i + 1, which another thread stores too.
// expect: race.global
#define NJ 1024
// kopt: launch scale grid=(64, 128) block=(32, 8) args=(out, in, ni, nj)
__global__ void scale(float *out, const float *in, int ni, int nj) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j <= nj) out[i * NJ + j] = 2.f * in[i * NJ + j] + threadIdx.x;
}
