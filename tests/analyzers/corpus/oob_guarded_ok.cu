// Neighbour read guarded against the end of the tile.
// expect: none
// kopt: launch forward_diff grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, d, n)
#define B 256
__global__ void forward_diff(const float* x, float* d, int n) {
  __shared__ float s[B];
  int t = threadIdx.x, i = blockIdx.x * B + t;
  s[t] = i < n ? x[i] : 0.f;
  __syncthreads();
  if (i < n) {
    float next = (t + 1 < B) ? s[t + 1] : ((i + 1 < n) ? x[i + 1] : 0.f);
    d[i] = next - s[t];
  }
}
