// Naive histogram: a first launch zeroes the 256 bins (outputs are poisoned before every run), then one thread per
// byte does a global atomicAdd on its bin.
// kopt: task histogram
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: launch zero_bins grid=(1) block=(256) args=(hist)
// kopt: launch histogram grid=(cdiv(n, BLOCK)) block=(BLOCK) args=(x, hist, n)

extern "C" __global__ void zero_bins(unsigned* __restrict__ hist) { hist[threadIdx.x] = 0u; }

extern "C" __global__ void histogram(const unsigned char* __restrict__ x, unsigned* __restrict__ hist, int n) {
  const long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) atomicAdd(&hist[x[i]], 1u);
}
