// Gaussian elimination's update step: thread (x, y) updates a[Size * (x + 1 + t) + (y + t)], and the guards return
// before the column y + t reaches Size, so each thread owns its element. Two threads meet only for a negative t
// (the column then starts before its row), which the caller's loop (t = 0 .. Size - 2) never passes: a note.
// expect: race.precondition
// kopt: launch fan2 grid=(16, 16) block=(4, 4) args=(m, a, Size, t)
__global__ void fan2(const float *m, float *a, int Size, int t) {
  if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
  if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t) return;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  a[Size * (x + 1 + t) + (y + t)] -= m[Size * (x + 1 + t) + t] * a[Size * t + (y + t)];
}
