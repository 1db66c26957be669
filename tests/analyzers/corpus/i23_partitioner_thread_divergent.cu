// A work partitioner whose next task depends on the thread (`+ (threadIdx.x & 1)`): threads of a block reach
// different tasks, leave the loop at different iterations and skip different tasks, so the loop's barriers
// are reached by some threads of a block and not others.
// expect: barrier.divergent
// kopt: launch tasks grid=(16) block=(128) args=(params, flags, out, n)
struct Partitioner { int n_tasks; int cut; int current; };
__device__ inline Partitioner make_partitioner(int n) { Partitioner p; p.n_tasks = n; p.cut = 0; return p; }
__device__ inline int first_task(Partitioner *p) { p->current = p->cut + blockIdx.x; return p->current; }
__device__ inline bool more_tasks(const Partitioner *p) { return p->current < p->n_tasks; }
__device__ inline int next_task(Partitioner *p) {
  p->current = p->current + gridDim.x + (threadIdx.x & 1);
  return p->current;
}
__global__ void tasks(float *params, const float *flags, float *out, int n) {
  __shared__ float s[128];
  Partitioner p = make_partitioner(n);
  for (int t = first_task(&p); more_tasks(&p); t = next_task(&p)) {
    float *m = &params[4 * t];
    if (threadIdx.x == 0 && flags[t] > 0.f) m[0] = -1.f;
    __syncthreads();
    if (m[0] == -1.f) continue;
    s[threadIdx.x] = m[1] * threadIdx.x;
    __syncthreads();
    out[t * 128 + threadIdx.x] = s[127 - threadIdx.x];
  }
}
