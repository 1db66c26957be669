// A kernel template whose flag is deduced from a tag argument: the launch of many blocks passes a constant declared
// as `std::bool_constant<false>`, so every thread adds to `total[0]` with a plain read-modify-write.
// expect: race.global
#include <type_traits>
constexpr std::bool_constant<false> kPlain;
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
    accumulate<<<1, 1>>>(total, x, n, std::true_type{});
  else
    accumulate<<<(n + 255) / 256, 256>>>(total, x, n, kPlain);
}
