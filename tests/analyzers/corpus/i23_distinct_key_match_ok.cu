// Each block finds where its query sits in a table of distinct keys: the one thread whose key equals the query
// stores its position. Written for distinct keys; kopt cannot see the data, so the pair is the note
// race.precondition naming it (race_shared_counter.cu counts matches instead: repeats expected, a race).
// expect: race.precondition
// kopt: launch locate grid=(queries) block=(256) args=(keys, query, where, queries)
__global__ void locate(const int *keys, const int *query, int *where, int queries) {
  int t = threadIdx.x, q = blockIdx.x;
  if (keys[t] == query[q]) where[q] = t;
}
