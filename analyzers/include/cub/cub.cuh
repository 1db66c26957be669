// kopt analyzer stub of CUB (CCCL's CUDA UnBound): the declarations kernels use, no implementation. Every
// `#include <cub/...>` reads this file. The model builder gives the block- and warp-wide collectives their effect
// (analyzers/calls.py, "CUB"): a block collective writes its TempStorage, waits at a block barrier and reads it, so
// reusing the storage without a __syncthreads() in between is a race, and calling it under a thread-dependent
// branch is a divergent barrier; Load/Store touch the block's tile of the array.
#pragma once
// (CUB is built on libcu++: code that includes only CUB names `cuda::std::numeric_limits`, `cuda::std::min`)
#include <cuda/std/__kopt_cuda_std.h>

namespace cub {

struct NullType {};
template <typename K, typename V> struct KeyValuePair { K key; V value;
  __device__ KeyValuePair() {} __device__ KeyValuePair(K k, V v) : key(k), value(v) {} };

// util_type.cuh: raw storage for a T (a `__shared__` T without running its constructor), and the word types CUB
// moves a T in (the widest unsigned word dividing both its size and its alignment)
template <typename T> struct Uninitialized {
  alignas(T) unsigned char storage[sizeof(T)];
  __host__ __device__ T &Alias();
};
template <typename T> struct UnitWord {
  template <typename W> struct __kopt_fits { static constexpr bool value = alignof(T) % sizeof(W) == 0 &&
                                                                           sizeof(T) % sizeof(W) == 0; };
  typedef typename ::std::conditional<__kopt_fits<unsigned long long>::value, unsigned long long,
      typename ::std::conditional<__kopt_fits<unsigned int>::value, unsigned int,
      typename ::std::conditional<__kopt_fits<unsigned short>::value, unsigned short, unsigned char>::type>::type>::type
      ShuffleWord;
  typedef ShuffleWord VolatileWord; typedef ShuffleWord DeviceWord; typedef ShuffleWord TextureWord;
};

struct Sum { template <typename T> __device__ T operator()(const T &a, const T &b) const; };
struct Max { template <typename T> __device__ T operator()(const T &a, const T &b) const; };
struct Min { template <typename T> __device__ T operator()(const T &a, const T &b) const; };
struct ArgMax { template <typename T> __device__ T operator()(const T &a, const T &b) const; };
struct ArgMin { template <typename T> __device__ T operator()(const T &a, const T &b) const; };
struct Equality { template <typename T> __device__ bool operator()(const T &a, const T &b) const; };
struct Inequality { template <typename T> __device__ bool operator()(const T &a, const T &b) const; };

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
                          BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
                           BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };
enum BlockHistogramAlgorithm { BLOCK_HISTO_SORT, BLOCK_HISTO_ATOMIC };
enum CacheLoadModifier { LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV, LOAD_LDG, LOAD_VOLATILE };
enum CacheStoreModifier { STORE_DEFAULT, STORE_WB, STORE_CG, STORE_CS, STORE_WT, STORE_VOLATILE };

// A block collective over BLOCK_THREADS threads: TempStorage is shared memory the threads exchange values through,
// raw bytes as CUB's own (a value type with constructors may live in __shared__ storage and in a union)
#define __KOPT_CUB_BLOCK_STORAGE(NAME, T, N) \
  struct TempStorage { alignas(T) unsigned char slots[sizeof(T) * (N)]; }; \
  __device__ NAME(); __device__ NAME(TempStorage &storage);

template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockReduce, T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z)
  template <typename... A> __device__ T Sum(A &&...);
  template <typename... A> __device__ T Reduce(A &&...);
};
template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockScan, T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z)
  template <typename... A> __device__ void ExclusiveSum(A &&...);
  template <typename... A> __device__ void InclusiveSum(A &&...);
  template <typename... A> __device__ void ExclusiveScan(A &&...);
  template <typename... A> __device__ void InclusiveScan(A &&...);
};
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockLoad, T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD)
  template <typename... A> __device__ void Load(A &&...);
};
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockStore, T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD)
  template <typename... A> __device__ void Store(A &&...);
};
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockExchange, T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD)
  template <typename... A> __device__ void StripedToBlocked(A &&...);
  template <typename... A> __device__ void BlockedToStriped(A &&...);
  template <typename... A> __device__ void WarpStripedToBlocked(A &&...);
  template <typename... A> __device__ void BlockedToWarpStriped(A &&...);
};
template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          int SMEM_CONFIG = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockRadixSort { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockRadixSort, KeyT, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD)
  template <typename... A> __device__ void Sort(A &&...);
  template <typename... A> __device__ void SortDescending(A &&...);
  template <typename... A> __device__ void SortBlockedToStriped(A &&...);
  template <typename... A> __device__ void SortDescendingBlockedToStriped(A &&...);
};
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS,
          BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1,
          int LEGACY_PTX_ARCH = 0>
class BlockHistogram { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockHistogram, T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD)
  template <typename... A> __device__ void Histogram(A &&...);
  template <typename... A> __device__ void Composite(A &&...);
  template <typename... A> __device__ void InitHistogram(A &&...);
};
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockDiscontinuity { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockDiscontinuity, T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z)
  template <typename... A> __device__ void FlagHeads(A &&...);
  template <typename... A> __device__ void FlagTails(A &&...);
  template <typename... A> __device__ void FlagHeadsAndTails(A &&...);
};
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockAdjacentDifference { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockAdjacentDifference, T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z)
  template <typename... A> __device__ void SubtractLeft(A &&...);
  template <typename... A> __device__ void SubtractRight(A &&...);
  template <typename... A> __device__ void SubtractLeftPartialTile(A &&...);
  template <typename... A> __device__ void SubtractRightPartialTile(A &&...);
  template <typename... A> __device__ void FlagHeads(A &&...);
  template <typename... A> __device__ void FlagTails(A &&...);
};
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockShuffle { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockShuffle, T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z)
  template <typename... A> __device__ void Offset(A &&...);
  template <typename... A> __device__ void Rotate(A &&...);
  template <typename... A> __device__ void Up(A &&...);
  template <typename... A> __device__ void Down(A &&...);
};
template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockMergeSort { public:
  __KOPT_CUB_BLOCK_STORAGE(BlockMergeSort, KeyT, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD)
  template <typename... A> __device__ void Sort(A &&...);
  template <typename... A> __device__ void StableSort(A &&...);
};
#undef __KOPT_CUB_BLOCK_STORAGE

// Warp collectives: shuffles within a logical warp (their TempStorage is used only for types shuffles cannot move).
#define __KOPT_CUB_WARP(NAME) \
  template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0> class NAME { public: \
    struct TempStorage { alignas(T) unsigned char slots[sizeof(T) * LOGICAL_WARP_THREADS]; }; \
    __device__ NAME(); __device__ NAME(TempStorage &storage);
__KOPT_CUB_WARP(WarpReduce)
  template <typename... A> __device__ T Sum(A &&...);
  template <typename... A> __device__ T Reduce(A &&...);
  // the input as T, so a braced input (`Reduce({key, value}, cub::ArgMax{})`) converts as with CUB's signature
  __device__ T Sum(T); __device__ T Sum(T, int);
  template <typename Op> __device__ T Reduce(T, Op); template <typename Op> __device__ T Reduce(T, Op, int);
  template <typename... A> __device__ T HeadSegmentedSum(A &&...);
  template <typename... A> __device__ T TailSegmentedSum(A &&...);
  template <typename... A> __device__ T HeadSegmentedReduce(A &&...);
  template <typename... A> __device__ T TailSegmentedReduce(A &&...);
};
__KOPT_CUB_WARP(WarpScan)
  template <typename... A> __device__ void ExclusiveSum(A &&...);
  template <typename... A> __device__ void InclusiveSum(A &&...);
  template <typename... A> __device__ void ExclusiveScan(A &&...);
  template <typename... A> __device__ void InclusiveScan(A &&...);
  template <typename... A> __device__ T Broadcast(A &&...);
};
__KOPT_CUB_WARP(WarpExchange)
  template <typename... A> __device__ void BlockedToStriped(A &&...);
  template <typename... A> __device__ void StripedToBlocked(A &&...);
  template <typename... A> __device__ void ScatterToStriped(A &&...);
};
__KOPT_CUB_WARP(WarpLoad)
  template <typename... A> __device__ void Load(A &&...);
};
__KOPT_CUB_WARP(WarpStore)
  template <typename... A> __device__ void Store(A &&...);
};
#undef __KOPT_CUB_WARP

// The thread-level tile loads and stores, as CUB writes them (striped: item i at tid + i * BLOCK_THREADS; blocked:
// at tid * ITEMS + i; the guarded forms touch the first valid_items of the tile only)
template <int BLOCK_THREADS, typename T, int ITEMS, typename It>
__device__ void LoadDirectStriped(int tid, It in, T (&items)[ITEMS]) {
  for (int i = 0; i < ITEMS; i++) items[i] = in[tid + i * BLOCK_THREADS];
}
template <int BLOCK_THREADS, typename T, int ITEMS, typename It>
__device__ void LoadDirectStriped(int tid, It in, T (&items)[ITEMS], int valid_items) {
  for (int i = 0; i < ITEMS; i++) if (tid + i * BLOCK_THREADS < valid_items) items[i] = in[tid + i * BLOCK_THREADS];
}
template <int BLOCK_THREADS, typename T, int ITEMS, typename It>
__device__ void StoreDirectStriped(int tid, It out, T (&items)[ITEMS]) {
  for (int i = 0; i < ITEMS; i++) out[tid + i * BLOCK_THREADS] = items[i];
}
template <int BLOCK_THREADS, typename T, int ITEMS, typename It>
__device__ void StoreDirectStriped(int tid, It out, T (&items)[ITEMS], int valid_items) {
  for (int i = 0; i < ITEMS; i++) if (tid + i * BLOCK_THREADS < valid_items) out[tid + i * BLOCK_THREADS] = items[i];
}
template <typename T, int ITEMS, typename It> __device__ void LoadDirectBlocked(int tid, It in, T (&items)[ITEMS]) {
  for (int i = 0; i < ITEMS; i++) items[i] = in[tid * ITEMS + i];
}
template <typename T, int ITEMS, typename It>
__device__ void LoadDirectBlocked(int tid, It in, T (&items)[ITEMS], int valid_items) {
  for (int i = 0; i < ITEMS; i++) if (tid * ITEMS + i < valid_items) items[i] = in[tid * ITEMS + i];
}
template <typename T, int ITEMS, typename It> __device__ void StoreDirectBlocked(int tid, It out, T (&items)[ITEMS]) {
  for (int i = 0; i < ITEMS; i++) out[tid * ITEMS + i] = items[i];
}
template <typename T, int ITEMS, typename It>
__device__ void StoreDirectBlocked(int tid, It out, T (&items)[ITEMS], int valid_items) {
  for (int i = 0; i < ITEMS; i++) if (tid * ITEMS + i < valid_items) out[tid * ITEMS + i] = items[i];
}

// Radix-sortable bits of a key type (cub/util_type.cuh): the unsigned integer of the key's size
template <int BYTES> struct __kopt_unsigned_bits { typedef unsigned int type; };
template <> struct __kopt_unsigned_bits<1> { typedef unsigned char type; };
template <> struct __kopt_unsigned_bits<2> { typedef unsigned short type; };
template <> struct __kopt_unsigned_bits<8> { typedef unsigned long long type; };
template <typename T> struct Traits {
  typedef typename __kopt_unsigned_bits<sizeof(T)>::type UnsignedBits;
  static __host__ __device__ UnsignedBits TwiddleIn(UnsignedBits key);
  static __host__ __device__ UnsignedBits TwiddleOut(UnsignedBits key);
};

// A floating-point key's extreme values (cub/util_type.cuh)
template <typename T> struct FpLimits {
  static __host__ __device__ T Max();
  static __host__ __device__ T Lowest();
};

template <CacheLoadModifier M = LOAD_DEFAULT, typename T> __device__ T ThreadLoad(T *ptr);
template <CacheStoreModifier M = STORE_DEFAULT, typename T> __device__ void ThreadStore(T *ptr, T value);
__device__ unsigned int LaneId(); __device__ unsigned int WarpId();

// Device-wide algorithms are host calls (launches kopt does not analyze): declared so host code parses.
#define __KOPT_CUB_DEVICE(NAME, ...) struct NAME { __VA_ARGS__ };
#define __KOPT_CUB_HOST(F) template <typename... A> static __host__ int F(A &&...);
__KOPT_CUB_DEVICE(DeviceReduce, __KOPT_CUB_HOST(Sum) __KOPT_CUB_HOST(Reduce) __KOPT_CUB_HOST(Max)
                  __KOPT_CUB_HOST(Min) __KOPT_CUB_HOST(ArgMax) __KOPT_CUB_HOST(ArgMin) __KOPT_CUB_HOST(ReduceByKey))
__KOPT_CUB_DEVICE(DeviceSegmentedReduce, __KOPT_CUB_HOST(Sum) __KOPT_CUB_HOST(Reduce) __KOPT_CUB_HOST(Max)
                  __KOPT_CUB_HOST(Min) __KOPT_CUB_HOST(ArgMax) __KOPT_CUB_HOST(ArgMin))
__KOPT_CUB_DEVICE(DeviceScan, __KOPT_CUB_HOST(ExclusiveSum) __KOPT_CUB_HOST(InclusiveSum)
                  __KOPT_CUB_HOST(ExclusiveScan) __KOPT_CUB_HOST(InclusiveScan) __KOPT_CUB_HOST(ExclusiveSumByKey)
                  __KOPT_CUB_HOST(InclusiveSumByKey))
__KOPT_CUB_DEVICE(DeviceRadixSort, __KOPT_CUB_HOST(SortKeys) __KOPT_CUB_HOST(SortPairs)
                  __KOPT_CUB_HOST(SortKeysDescending) __KOPT_CUB_HOST(SortPairsDescending))
__KOPT_CUB_DEVICE(DeviceSegmentedRadixSort, __KOPT_CUB_HOST(SortKeys) __KOPT_CUB_HOST(SortPairs)
                  __KOPT_CUB_HOST(SortKeysDescending) __KOPT_CUB_HOST(SortPairsDescending))
__KOPT_CUB_DEVICE(DeviceSelect, __KOPT_CUB_HOST(Flagged) __KOPT_CUB_HOST(If) __KOPT_CUB_HOST(Unique))
__KOPT_CUB_DEVICE(DevicePartition, __KOPT_CUB_HOST(Flagged) __KOPT_CUB_HOST(If))
__KOPT_CUB_DEVICE(DeviceHistogram, __KOPT_CUB_HOST(HistogramEven) __KOPT_CUB_HOST(HistogramRange))
__KOPT_CUB_DEVICE(DeviceRunLengthEncode, __KOPT_CUB_HOST(Encode) __KOPT_CUB_HOST(NonTrivialRuns))
#undef __KOPT_CUB_HOST
#undef __KOPT_CUB_DEVICE

}  // namespace cub
