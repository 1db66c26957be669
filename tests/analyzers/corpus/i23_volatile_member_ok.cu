// A ring buffer whose head is a volatile member: threads poll it with volatile loads while others reserve
// slots with atomicAdd on the same member (the legacy relaxed-load idiom, not a plain read).
// expect: none
// kopt: launch reserve grid=(8) block=(64) args=(rb, out)
struct Ring { volatile unsigned int head; volatile unsigned int tail; unsigned int size; };
__global__ void reserve(Ring *rb, unsigned int *out) {
  while (rb->head - rb->tail >= rb->size) {
  }
  unsigned int slot = atomicAdd((unsigned int *)&rb->head, 1);
  out[blockIdx.x * 64 + threadIdx.x] = slot;
}
