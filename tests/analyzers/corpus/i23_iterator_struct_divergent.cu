// The iterator of i23_iterator_struct_ok.cu started at each thread's own offset: threads of one block walk
// different numbers of tasks, so some leave the loop while others wait at its barriers.
// expect: barrier.divergent
// kopt: launch walk grid=(8) block=(256) args=(out, n_tasks, alpha)
struct Iter {
  int n_tasks;
  int cut;
  int current;
};

__device__ inline Iter iter_create(int n_tasks, float alpha) {
  Iter it;
  it.n_tasks = n_tasks;
  it.cut = n_tasks * alpha;
  return it;
}
__device__ inline int iter_first(Iter *it) {
  it->current = it->cut + blockIdx.x + threadIdx.x;
  return it->current;
}
__device__ inline bool iter_more(const Iter *it) { return it->current < it->n_tasks; }
__device__ inline int iter_next(Iter *it) {
  it->current = it->current + gridDim.x;
  return it->current;
}

__global__ void walk(float *out, int n_tasks, float alpha) {
  __shared__ float tile[256];
  Iter it = iter_create(n_tasks, alpha);
  for (int task = iter_first(&it); iter_more(&it); task = iter_next(&it)) {
    tile[threadIdx.x] = out[task * 256 + threadIdx.x];
    __syncthreads();
    out[task * 256 + threadIdx.x] = tile[255 - threadIdx.x];
    __syncthreads();
  }
}
