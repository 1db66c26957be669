#pragma once
// kopt analyzer stub: libcu++'s `cuda::` names (scoped atomics, barriers, pipelines, asynchronous copies, <cuda/ptx>),
// read where a file includes a `<cuda/...>` header, CUB or Thrust, as with the toolkit, and not otherwise: a project
// may name its own namespace `cuda` (CV-CUDA's `namespace cuda = nvcv::cuda;`). A file that names `cuda::` with no
// such include reads it after its first parse (real_decls._NAMESPACE_HEADERS).
namespace cuda {
  enum thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread };
  // libcu++'s scoped atomics (their operations are declared only: a call is an opaque function of the analysis)
  enum memory_order { memory_order_relaxed, memory_order_consume, memory_order_acquire, memory_order_release,
                      memory_order_acq_rel, memory_order_seq_cst };
#define __KOPT_ATOMIC_OPS(C) \
    __host__ __device__ T load(memory_order = memory_order_seq_cst) const C; \
    __host__ __device__ void store(T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ T exchange(T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ bool compare_exchange_strong(T&, T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ bool compare_exchange_weak(T&, T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ T fetch_add(T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ T fetch_sub(T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ T fetch_and(T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ T fetch_or(T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ T fetch_xor(T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ T fetch_min(T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ T fetch_max(T, memory_order = memory_order_seq_cst) C; \
    __host__ __device__ operator T() const; __host__ __device__ T operator=(T) C;
  template <class T, thread_scope S = thread_scope_system> struct atomic_ref {
    __host__ __device__ explicit atomic_ref(T&); __KOPT_ATOMIC_OPS(const) };
  template <class T, thread_scope S = thread_scope_system> struct atomic {
    __host__ __device__ atomic(); __host__ __device__ constexpr atomic(T); __KOPT_ATOMIC_OPS()
   private: T __value; };  // (its size is T's: code asserts `sizeof(cuda::atomic<int>) == sizeof(int)`)
#undef __KOPT_ATOMIC_OPS
  __host__ __device__ void atomic_thread_fence(memory_order, thread_scope = thread_scope_system);
  template <thread_scope S = thread_scope_system> struct barrier {
    struct arrival_token {};
    __device__ arrival_token arrive(long = 1); __device__ void wait(arrival_token&&) const;
    __device__ void arrive_and_wait(); __device__ void arrive_and_drop();
    __device__ static constexpr long max() { return 1 << 20; } };
  template <thread_scope S> __device__ void init(barrier<S>*, long);
  template <thread_scope S = thread_scope_system> struct pipeline {
    __device__ void producer_acquire(); __device__ void producer_commit(); __device__ void consumer_wait();
    __device__ void consumer_release(); };
  template <thread_scope S, unsigned char N> struct pipeline_shared_state {};
  __device__ pipeline<thread_scope_thread> make_pipeline();
  template <class G, class St> __device__ pipeline<thread_scope_block> make_pipeline(const G&, St*);
  template <unsigned char N, thread_scope S> __device__ void pipeline_consumer_wait_prior(pipeline<S>&);
  template <size_t A> struct aligned_size_t { size_t v; __device__ aligned_size_t(size_t); };
  // any element and size types (byte counts, aligned_size_t), as the real overload set accepts
  template <class D, class S, class N, class Sync> __device__ void memcpy_async(D*, const S*, N, Sync&);
  template <class G, class D, class S, class N, class Sync> __device__ void memcpy_async(const G&, D*, const S*, N,
                                                                                         Sync&);
  enum class pipeline_role { producer, consumer };
  template <class G, class St> __device__ pipeline<thread_scope_block> make_pipeline(const G&, St*, pipeline_role);
  namespace device { namespace experimental {
    __device__ void fence_proxy_async_shared_cta();
    template <class B> __device__ void cp_async_bulk_tensor_2d_global_to_shared(void*, const void*, int, int, B&);
    template <class B> __device__ void cp_async_bulk_tensor_1d_global_to_shared(void*, const void*, int, B&);
    __device__ void cp_async_bulk_tensor_2d_shared_to_global(const void*, int, int, const void*);
    __device__ void cp_async_bulk_commit_group(); template <int N> __device__ void cp_async_bulk_wait_group_read();
  } }
  namespace ptx { struct space_shared_t {}; constexpr space_shared_t space_shared{};
    __device__ void fence_proxy_async(); __device__ void fence_proxy_async(space_shared_t);
    // <cuda/ptx>'s special-register reads (%laneid, %warpid, ...)
    __device__ unsigned get_sreg_laneid(); __device__ unsigned get_sreg_warpid(); __device__ unsigned get_sreg_nwarpid();
    __device__ unsigned get_sreg_smid(); __device__ unsigned get_sreg_nsmid(); __device__ unsigned get_sreg_lanemask_lt();
    __device__ unsigned get_sreg_lanemask_le(); __device__ unsigned get_sreg_lanemask_eq();
    __device__ unsigned get_sreg_lanemask_ge(); __device__ unsigned get_sreg_lanemask_gt();
    __device__ unsigned long long get_sreg_clock64(); __device__ unsigned long long get_sreg_globaltimer(); }
  namespace std { using ::std::min; using ::std::max; }
}
