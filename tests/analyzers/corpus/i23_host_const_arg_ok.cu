// The bucket count is a parameter, but the only launch passes 256 with 256 threads in one block: each thread owns
// one bucket.
// expect: none
#define THREADS 256
__global__ void spread(float *buckets, const float *x, int nbuckets) {
  buckets[threadIdx.x % nbuckets] = x[threadIdx.x];
}
void run(float *b, const float *x) {
  spread<<<1, THREADS>>>(b, x, THREADS);
}
