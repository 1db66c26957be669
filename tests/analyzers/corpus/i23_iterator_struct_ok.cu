// A work iterator kept in a local struct and advanced by helpers that take its address (the partitioner of the
// Chai benchmarks): every thread of a block walks the same tasks, so the barriers in the loop are reached by all.
// The helpers read and write the struct through the pointer; its fields are unknowns from one pass to the next,
// each as uniform as the values that set it.
// expect: none
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
  it->current = it->cut + blockIdx.x;
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
