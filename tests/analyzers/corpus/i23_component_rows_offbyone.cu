// The rows of a pitched array of components, with a guard that lets idx reach the rows' length (`idx > n + m`):
// at the tightest pitch (pitch == n + m) the thread at idx == n + m of row 1 stores to the first element of row 2,
// which another thread stores too.
// expect: race.global
// kopt: launch components grid=(cdiv(n, 128)) block=(128, 1, 1) args=(v, pitch, n, m)
__global__ void components(float* v, unsigned pitch, unsigned n, unsigned m) {
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx > n + m) return;
  v[1 * pitch + idx] = 1.0f;
  v[2 * pitch + idx] = 2.0f;
}
