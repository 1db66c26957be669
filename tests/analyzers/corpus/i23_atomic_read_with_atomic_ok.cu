// The running total is read with atomicAdd(p, 0), an atomic read, so it does not race with the updates.
// expect: none
// kopt: launch progress grid=(8) block=(64) args=(x, done, seen)
__global__ void progress(const float *x, unsigned *done, unsigned *seen) {
  int i = blockIdx.x * 64 + threadIdx.x;
  if (x[i] != 0.f) atomicAdd(done, 1u);
  unsigned now = atomicAdd(done, 0u);
  seen[i] = now;
}
