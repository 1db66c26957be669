// Stream compaction into a shared list: slots come from an atomic counter, and the list is read back
// by other threads with no barrier after the writes; the `t < count` test also reads the counter while other
// threads still update it atomically.
// expect: sync.missing, race.atomic-plain
// kopt: launch compact grid=(cdiv(n, 256)) block=(256, 1, 1) args=(x, out, counts, n)
__global__ void compact(const float* __restrict__ x, float* __restrict__ out, int* __restrict__ counts, int n) {
  __shared__ float list[256];
  __shared__ int count;
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  if (t == 0) count = 0;
  __syncthreads();
  float v = i < n ? x[i] : 0.f;
  if (v > 0.f) {
    int pos = atomicAdd(&count, 1);
    list[pos] = v;
  }
  if (t < count) out[blockIdx.x * 256 + t] = list[t];
  if (t == 0) counts[blockIdx.x] = count;
}
