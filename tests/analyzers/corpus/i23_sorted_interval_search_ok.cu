// One B+tree-style lookup per block: the thread whose key interval holds the block's query, keys[t] <= q <
// keys[t + 1], records the child to visit next. In a node whose keys are sorted ascending one thread at most holds
// the query; kopt cannot see the data, so the write-write pair is the note race.precondition naming the order.
// expect: race.precondition
// kopt: launch descend grid=(queries) block=(256) args=(keys, children, query, cur, next, queries)
__global__ void descend(const int *keys, const int *children, const int *query, const int *cur, int *next,
                        int queries) {
  int t = threadIdx.x, q = blockIdx.x;
  const int *node = keys + cur[q] * 257;
  if (node[t] <= query[q] && query[q] < node[t + 1])
    next[q] = children[cur[q] * 256 + t];
}
