// BlockLoad, BlockScan and BlockStore share one union of TempStorage (CUB's idiom), but the barrier between the
// scan and the store is missing: the store's transpose overwrites storage the scan's threads may still read.
// expect: race.shared
#include <cub/cub.cuh>
#define BLOCK 128
#define ITEMS 4
__global__ void tile_scan(const int *in, int *out) {
  typedef cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE> Load;
  typedef cub::BlockScan<int, BLOCK> Scan;
  typedef cub::BlockStore<int, BLOCK, ITEMS, cub::BLOCK_STORE_TRANSPOSE> Store;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } temp;
  int items[ITEMS];
  int tile = blockIdx.x * BLOCK * ITEMS;
  Load(temp.load).Load(in + tile, items);
  __syncthreads();
  Scan(temp.scan).InclusiveSum(items, items);
  Store(temp.store).Store(out + tile, items);
}
int main() {
  int *in, *out;
  tile_scan<<<32, BLOCK>>>(in, out);
}
