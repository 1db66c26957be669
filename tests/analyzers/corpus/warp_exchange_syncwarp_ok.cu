// The same lane rotation with __syncwarp() between the write and the read.
// expect: none
// kopt: launch rotate grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, n)
__global__ void rotate(float* x, int n) {
  __shared__ float buf[8][32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int i = blockIdx.x * 256 + threadIdx.x;
  buf[warp][lane] = i < n ? x[i] : 0.f;
  __syncwarp();
  float v = buf[warp][(lane + 1) % 32];
  if (i < n) x[i] = v;
}
