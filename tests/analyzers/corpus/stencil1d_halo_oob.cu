// The tile was sized for one halo only: the right halo lands past the end of the array.
// expect: bounds.shared
// kopt: launch stencil_1d grid=(cdiv(n, 128)) block=(128, 1, 1) args=(in, out, n)
#define RADIUS 4
#define BLOCK_SIZE 128

__global__ void stencil_1d(const float* in, float* out, int n) {
  __shared__ float temp[BLOCK_SIZE + RADIUS];
  int g = threadIdx.x + blockIdx.x * blockDim.x;
  int l = threadIdx.x + RADIUS;
  temp[l] = g < n ? in[g] : 0.f;
  if (threadIdx.x < RADIUS) {
    temp[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.f;
    temp[l + BLOCK_SIZE] = g + BLOCK_SIZE < n ? in[g + BLOCK_SIZE] : 0.f;
  }
  __syncthreads();
  float r = 0.f;
  for (int o = -RADIUS; o <= RADIUS; ++o) r += temp[l + o];
  if (g < n) out[g] = r;
}
