// A loop whose test reads a shared counter that every thread bumps with atomicAdd: the test's plain read races with
// the other threads' atomic updates (the loop runs while the counter is below the limit, so its trip count is not
// a function of the iteration number: nothing pins it).
// expect: race.atomic-plain
// kopt: launch spin_until grid=(1) block=(64, 1, 1) args=(out, limit)
__global__ void spin_until(int* out, int limit) {
  __shared__ int hits;
  if (threadIdx.x == 0) hits = 0;
  __syncthreads();
  int mine = 0;
  while (hits < limit) {
    ++mine;
    atomicAdd(&hits, 1);
  }
  out[threadIdx.x] = mine;
}
