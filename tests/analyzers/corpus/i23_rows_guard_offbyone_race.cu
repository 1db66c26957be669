// The update step with its column guard off by one (y + t may reach Size): the thread at column Size of row r
// updates the first element of row r + 1, which another thread updates too.
// expect: race.global
// kopt: launch fan2 grid=(16, 16) block=(4, 4) args=(m, a, Size, t)
__global__ void fan2(const float *m, float *a, int Size, int t) {
  if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
  if (threadIdx.y + blockIdx.y * blockDim.y > Size - t) return;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  a[Size * (x + 1 + t) + (y + t)] -= m[Size * (x + 1 + t) + t] * a[Size * t + (y + t)];
}
