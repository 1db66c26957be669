// Two branches take slots from two different counters but fill the same array: a slot of one counter can equal a
// slot of the other.
// expect: race.global
__global__ void edges(const float *d, float *out, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n) return;
  if (d[i] > 0.f) {
    unsigned s = atomicAdd(count, 1);
    out[s] = d[i];
  }
  if (d[i + 1] < 0.f) {
    unsigned s = atomicAdd(count + 1, 1);
    out[s] = -d[i + 1];
  }
}
