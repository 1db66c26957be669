// A found flag read and set through a plain pointer by threads of every block (the legacy early-exit idiom):
// plain accesses are not ordered or made visible between threads: the read races with the store (the compiler may
// keep the flag in a register).
// expect: race.global
__global__ void stop_when_found(const int *x, int *found, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (found[0]) return;
  if (i < n && x[i] == 7) found[0] = 1;
}
int main() {
  int *x, *f;
  stop_when_found<<<64, 256>>>(x, f, 16384);
}
