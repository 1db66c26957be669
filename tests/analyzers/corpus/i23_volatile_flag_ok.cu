// A found flag read and set through a volatile pointer by threads of every block (the legacy early-exit idiom):
// volatile accesses are relaxed system-scope accesses in the CUDA memory model, so two of them to one word do not
// race; the one value stored is 1 either way.
// expect: none
__global__ void stop_when_found(const int *x, volatile int *found, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (found[0]) return;
  if (i < n && x[i] == 7) found[0] = 1;
}
int main() {
  int *x, *f;
  stop_when_found<<<64, 256>>>(x, f, 16384);
}
