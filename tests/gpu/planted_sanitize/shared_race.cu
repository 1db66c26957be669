// Planted: neighbours read shared memory with no barrier after the writes (racecheck: lines 8 and 9).
// kopt: task vector_add
// kopt: launch shared_race grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
extern "C" __global__ void shared_race(const float* a, const float* b, float* c, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i < n ? a[i] : 0.0f;
  s[threadIdx.x] = x;
  float y = s[(threadIdx.x + 1) % 256];
  if (i < n) c[i] = x + b[i] + 0.0f * y;
}
