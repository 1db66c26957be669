// A kernel template whose flag is deduced from a tag argument (`std::bool_constant<Atomic>`): the launch of many
// blocks passes `std::true_type{}` and accumulates with atomics; the plain store is compiled only for the launch of
// one thread.
// expect: none
#include <type_traits>
template <bool Atomic>
__global__ void accumulate(float *total, const float *x, int n, std::bool_constant<Atomic>) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if constexpr (Atomic) {
    atomicAdd(total, x[i]);
  } else {
    total[0] += x[i];
  }
}
void run(float *total, const float *x, int n) {
  if (n == 1)
    accumulate<<<1, 1>>>(total, x, n, std::bool_constant<false>{});
  else
    accumulate<<<(n + 255) / 256, 256>>>(total, x, n, std::true_type{});
}
