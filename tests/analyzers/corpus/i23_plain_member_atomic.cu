// The same ring buffer with a plain (non-volatile) head: the polling loop reads it with ordinary loads while
// other threads update it atomically, a plain-vs-atomic race.
// expect: race.atomic-plain
// kopt: launch reserve grid=(8) block=(64) args=(rb, out)
struct Ring { unsigned int head; unsigned int tail; unsigned int size; };
__global__ void reserve(Ring *rb, unsigned int *out) {
  while (rb->head - rb->tail >= rb->size) {
  }
  unsigned int slot = atomicAdd(&rb->head, 1);
  out[blockIdx.x * 64 + threadIdx.x] = slot;
}
