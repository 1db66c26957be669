// Host-only types (std::vector, a timer struct) in the file; the kernel itself is a clean scale.
// expect: none
// kopt: launch scale grid=(32) block=(128) args=(x, a)
#include <vector>
#include <chrono>
struct Timer { std::chrono::steady_clock::time_point t0; double ms() const; };
__global__ void scale(float *x, float a) {
  int i = blockIdx.x * 128 + threadIdx.x;
  x[i] = a * x[i];
}
static std::vector<float> make_input(int n) { return std::vector<float>(n, 1.0f); }
