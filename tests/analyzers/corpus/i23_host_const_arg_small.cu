// The only launch passes 128 buckets for 256 threads: threads t and t + 128 store to one bucket.
// expect: race.global
#define THREADS 256
__global__ void spread(float *buckets, const float *x, int nbuckets) {
  buckets[threadIdx.x % nbuckets] = x[threadIdx.x];
}
void run(float *b, const float *x) {
  spread<<<1, THREADS>>>(b, x, THREADS / 2);
}
