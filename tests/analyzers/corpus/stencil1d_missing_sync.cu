// 1D stencil reading neighbours' halo entries before anyone waits for them.
// expect: sync.missing
// kopt: launch stencil_1d grid=(cdiv(n, 256)) block=(256, 1, 1) args=(in, out, n)
#define RADIUS 3
#define BLOCK_SIZE 256

__global__ void stencil_1d(const float* in, float* out, int n) {
  __shared__ float temp[BLOCK_SIZE + 2 * RADIUS];
  int gindex = threadIdx.x + blockIdx.x * blockDim.x;
  int lindex = threadIdx.x + RADIUS;
  temp[lindex] = gindex < n ? in[gindex] : 0.f;
  if (threadIdx.x < RADIUS) {
    temp[lindex - RADIUS] = gindex >= RADIUS ? in[gindex - RADIUS] : 0.f;
    temp[lindex + BLOCK_SIZE] = gindex + BLOCK_SIZE < n ? in[gindex + BLOCK_SIZE] : 0.f;
  }
  float result = 0;
  for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[lindex + offset];
  if (gindex < n) out[gindex] = result;
}
