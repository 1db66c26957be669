#include "measure.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "cupti_trace.h"
#include "driver_api.h"
#include "nvml_clock.h"

namespace kopt {
namespace {

using Clock = std::chrono::steady_clock;

struct CallStopped : std::runtime_error {
  CallStopped() : std::runtime_error("the timed function failed") {}
};

// One buffer, twice the L2, allocated on first use and kept: flushing never allocates.
CUdeviceptr flush_buffer(size_t bytes) {
  static CUdeviceptr buf = 0;
  static size_t size = 0;
  if (size < bytes) {
    auto& d = driver();
    if (buf) d.cuMemFree(buf);
    check(d.cuMemAlloc(&buf, bytes), "cuMemAlloc(L2 flush buffer)");
    size = bytes;
  }
  return buf;
}

CuptiTrace& trace() {
  static CuptiTrace t;  // enabled once per process; records flow only while the harness drains them
  return t;
}

void launch(const Launch& l, uint64_t param_array, CUstream s) {
  auto& d = driver();
  auto f = reinterpret_cast<CUfunction>(l.function);
  auto params = reinterpret_cast<void**>(param_array);
  if (l.cluster[0] == 0) {
    check(d.cuLaunchKernel(f, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], l.smem, s, params,
                           nullptr),
          "cuLaunchKernel");
    return;
  }
  CUlaunchAttribute attr{};
  attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim.x = l.cluster[0];
  attr.value.clusterDim.y = l.cluster[1];
  attr.value.clusterDim.z = l.cluster[2];
  CUlaunchConfig cfg{};
  cfg.gridDimX = l.grid[0], cfg.gridDimY = l.grid[1], cfg.gridDimZ = l.grid[2];
  cfg.blockDimX = l.block[0], cfg.blockDimY = l.block[1], cfg.blockDimZ = l.block[2];
  cfg.sharedMemBytes = l.smem;
  cfg.hStream = s;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  check(d.cuLaunchKernelEx(&cfg, f, params, nullptr), "cuLaunchKernelEx");
}

struct Session {
  CUstream stream = nullptr, aux = nullptr;
  CUevent start = nullptr, end = nullptr, fork = nullptr, join = nullptr;
  CUdeviceptr flush = 0;
  size_t flush_bytes = 0;
  unsigned flush_value = 0;
  uint64_t flush_fn = 0;
  unsigned flush_grid = 0;
  long long flush_n16 = 0;
  bool flush_l2 = true;
  void* flush_args[3] = {&flush, &flush_n16, &flush};
  ~Session() {
    auto& d = driver();
    if (start) d.cuEventDestroy(start);
    if (end) d.cuEventDestroy(end);
    if (fork) d.cuEventDestroy(fork);
    if (join) d.cuEventDestroy(join);
    if (aux) d.cuStreamDestroy(aux);
    if (stream) d.cuStreamDestroy(stream);
  }

  // Memsets done before a sample, outside its span (outputs poisoned, scratch reset).
  void enqueue_resets(const std::vector<Reset>& resets) {
    auto& d = driver();
    for (const Reset& r : resets) {
      if (r.width == 1)
        check(d.cuMemsetD8Async(r.ptr, r.pattern & 0xFF, r.bytes, stream), "cuMemsetD8Async");
      else if (r.width == 2)
        check(d.cuMemsetD16Async(r.ptr, r.pattern & 0xFFFF, r.bytes / 2, stream), "cuMemsetD16Async");
      else
        check(d.cuMemsetD32Async(r.ptr, r.pattern, r.bytes / 4, stream), "cuMemsetD32Async");
    }
  }

  // A 4-byte memset: the harness's own activity between samples, so their kernels are told apart; L2 stays as it is.
  void enqueue_separator() {
    check(driver().cuMemsetD32Async(flush, ++flush_value, 1, stream), "cuMemsetD32Async(sample separator)");
  }

  // One sample's launches on set `set` (of the steady sets when `steady`), the second stream forked and joined.
  void enqueue_launches(const Bench& b, int set, bool steady) {
    auto& d = driver();
    bool forked = false;
    for (const Launch& l : b.launches) {
      if (l.stream == 1 && !forked) {  // the second stream starts after the flush, like the main one
        check(d.cuEventRecord(fork, stream), "cuEventRecord(fork)");
        check(d.cuStreamWaitEvent(aux, fork, 0), "cuStreamWaitEvent");
        forked = true;
      }
      launch(l, steady ? l.steady_params.at(set) : l.params.at(set), l.stream == 1 ? aux : stream);
    }
    if (forked) {  // the sample ends when both streams are done
      check(d.cuEventRecord(join, aux), "cuEventRecord(join)");
      check(d.cuStreamWaitEvent(stream, join, 0), "cuStreamWaitEvent");
    }
  }

  // Everything one sample needs, in stream order: resets, L2 flush (or, warm, a 4-byte separator), [start event],
  // launches, [end event].
  void enqueue(const Bench& b, int set, bool events) {
    auto& d = driver();
    enqueue_resets(b.resets.at(set));
    if (flush_l2 && flush_fn)
      check(d.cuLaunchKernel(reinterpret_cast<CUfunction>(flush_fn), flush_grid, 1, 1, 256, 1, 1, 0, stream,
                             flush_args, nullptr),
            "cuLaunchKernel(L2 flush)");
    else if (flush_l2)
      check(d.cuMemsetD32Async(flush, ++flush_value, flush_bytes / 4, stream), "cuMemsetD32Async(L2 flush)");
    else  // warm: no flush, but samples still need the harness's own activity between them to be told apart
      enqueue_separator();
    if (b.call) {  // the caller's work goes on its own streams: it starts once the flush is done
      check_wait(d.cuStreamSynchronize(stream), "L2 flush");
      if (events) check(d.cuEventRecord(start, CU_STREAM_LEGACY), "cuEventRecord");
      if (!b.call()) throw CallStopped();
      if (events) check(d.cuEventRecord(end, CU_STREAM_LEGACY), "cuEventRecord");
      return;
    }
    if (events) check(d.cuEventRecord(start, stream), "cuEventRecord");
    enqueue_launches(b, set, false);
    if (events) check(d.cuEventRecord(end, stream), "cuEventRecord");
  }
};

// Waits for a sample's work: the harness's stream, or every stream for a function's.
void wait_for(const Session& s, const Bench& b, const char* what) {
  auto& d = driver();
  check_wait(b.call ? d.cuCtxSynchronize() : d.cuStreamSynchronize(s.stream), what);
}

// A function's sample: the span of everything after the harness's own records (its resets, then the flush or the
// separator), which completed before the function ran.
std::vector<double> call_duration(const std::vector<GpuActivity>& recs, size_t harness_records, EntrySamples& r) {
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = harness_records; i < recs.size(); ++i) {
    const GpuActivity& a = recs[i];
    if (a.end <= a.start) continue;
    r.kernels[a.is_kernel ? a.name : "[" + a.name + "]"]++;  // a function's memsets and memcpys are its work too
    lo = std::min(lo, a.start);
    hi = std::max(hi, a.end);
  }
  if (hi == 0) return {};
  return {(hi - lo) * 1e-3};
}

// Kernel groups between the harness's memsets: one group per sample, first kernel start to last kernel end.
std::vector<double> sample_durations(const std::vector<GpuActivity>& recs, std::map<std::string, int>& kernels) {
  std::vector<double> out;
  uint64_t lo = 0, hi = 0;
  bool open = false;
  for (const GpuActivity& a : recs) {
    if (!a.is_kernel || a.name == "kopt_l2_flush") {  // the harness's own work separates samples
      if (open) out.push_back((hi - lo) * 1e-3);
      open = false;
      continue;
    }
    if (a.end <= a.start) continue;  // an incomplete record: never happens after a synchronize, but never trusted
    kernels[a.name]++;
    if (!open) lo = a.start, hi = a.end, open = true;
    lo = std::min(lo, a.start);
    hi = std::max(hi, a.end);
  }
  if (open) out.push_back((hi - lo) * 1e-3);
  return out;
}

double median_of(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

constexpr int kSteadyMinBatch = 8;

// Steady state, after the cold samples: batches of back-to-back samples rotating over each bench's steady sets (more
// than twice the L2 in all, sized by the caller), so the dirty lines one sample leaves in L2 are written back during
// the next samples, inside their spans, as in a real run of many launches. Samples stay separated by a 4-byte memset
// (which leaves L2 as it is) and are measured like cold ones: first kernel start to last kernel end, every kernel
// counted, from CUPTI records. A batch first runs one rotation untimed, so every timed sample starts with L2 holding
// earlier samples' lines (a batch that starts after another bench's batch would otherwise pay for that one's
// write-backs), then times max(sets, 8) samples, fewer when the cold median says the batch would take more than a
// quarter of the time cap. The caps and the criterion are the cold samples', the time cap at most steady_max_time.
void measure_steady(Session& s, const std::vector<Bench>& benches, const MeasureOptions& opts, const SmClock& clock,
                    double clock_max, std::vector<EntrySamples>& results) {
  auto& d = driver();
  StoppingOptions so = opts.stopping;
  so.max_time = std::min(opts.steady_max_time, opts.stopping.max_time);
  std::vector<StoppingRule> rules;
  rules.reserve(benches.size());
  std::vector<size_t> todo;
  for (size_t i = 0; i < benches.size(); ++i) {
    rules.emplace_back(so);
    const Bench& b = benches[i];
    EntrySamples& r = results[i];
    if (b.steady_sets < 2) continue;  // not asked for: the caller says why
    if (so.max_time <= 0) {
      r.steady_note = "steady state turned off (steady_max_time = 0)";
      continue;
    }
    if (r.method.rfind("cupti", 0) != 0) {
      r.steady_note = "steady state needs CUPTI records to tell back-to-back samples apart";
      continue;
    }
    if (r.samples_us.empty()) {
      r.steady_note = "no cold samples to size the batches by";
      continue;
    }
    double median_s = median_of(r.samples_us) * 1e-6;
    int warm = b.steady_sets;
    if (median_s * (warm + 1) > so.max_time) {
      r.steady_note = "one batch (" + std::to_string(warm + 1) + " samples at the cold median) would take longer " +
                      "than the steady-state time cap (" + seconds_text(so.max_time) + ")";
      continue;
    }
    int fit = static_cast<int>(so.max_time / 4 / median_s) - warm;
    r.steady_warmup = warm;
    r.steady_batch = std::max(1, std::min(std::max(b.steady_sets, kSteadyMinBatch), fit));
    todo.push_back(i);
  }
  std::vector<double> elapsed(benches.size(), 0.0);
  std::vector<bool> failed(benches.size(), false);
  bool running = !todo.empty();
  while (running) {
    running = false;
    for (size_t i : todo) {
      if (rules[i].done() || failed[i]) continue;
      running = true;
      const Bench& b = benches[i];
      EntrySamples& r = results[i];
      const int total = r.steady_warmup + r.steady_batch;
      unsigned c0 = clock.current();
      auto t0 = Clock::now();
      for (int j = 0; j < total; ++j) {
        int set = j % b.steady_sets;
        s.enqueue_resets(b.steady_resets.at(set));
        s.enqueue_separator();
        s.enqueue_launches(b, set, true);
      }
      check_wait(d.cuStreamSynchronize(s.stream), "kernel execution (steady state)");
      elapsed[i] += std::chrono::duration<double>(Clock::now() - t0).count();
      unsigned c1 = clock.current();
      std::map<std::string, int> kernels;  // the cold samples already list every kernel
      std::vector<double> got = sample_durations(trace().drain(), kernels);
      if (static_cast<int>(got.size()) != total) {
        r.steady_note = "a batch of " + std::to_string(total) + " samples recorded " + std::to_string(got.size()) +
                        " groups of kernels: steady state abandoned";
        r.steady_us.clear();
        failed[i] = true;
        continue;
      }
      unsigned c = (c0 && c1) ? std::min(c0, c1) : std::max(c0, c1);
      if (clock_max > 0 && c > 0 && c < opts.clock_floor * clock_max) {
        r.steady_discarded_clock += r.steady_batch;
        rules[i].check(elapsed[i]);
        continue;
      }
      for (int j = r.steady_warmup; j < total; ++j) {
        r.steady_us.push_back(got[j]);
        if (rules[i].add(got[j], elapsed[i])) break;
      }
    }
  }
  for (size_t i : todo)
    if (!failed[i]) results[i].steady_stop_reason = rules[i].reason();
}

}  // namespace

std::vector<EntrySamples> measure(const std::vector<Bench>& benches, const MeasureOptions& opts) {
  auto& d = driver();
  CUcontext ctx = nullptr;
  check(d.cuCtxGetCurrent(&ctx), "cuCtxGetCurrent");
  if (!ctx) throw std::runtime_error("no current CUDA context: load the candidate's module first");
  CUdevice dev;
  check(d.cuCtxGetDevice(&dev), "cuCtxGetDevice");
  int l2 = 0;
  check(d.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev), "L2 size");
  d.cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0);  // best effort: not every device supports persistence
  d.cuCtxResetPersistingL2Cache();

  Session s;
  check(d.cuStreamCreate(&s.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  check(d.cuEventCreate(&s.start, CU_EVENT_DEFAULT), "cuEventCreate");
  check(d.cuEventCreate(&s.end, CU_EVENT_DEFAULT), "cuEventCreate");
  check(d.cuStreamCreate(&s.aux, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  check(d.cuEventCreate(&s.fork, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  check(d.cuEventCreate(&s.join, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  s.flush_bytes = 2 * static_cast<size_t>(l2);
  s.flush = flush_buffer(s.flush_bytes);
  s.flush_fn = opts.flush_function;
  s.flush_grid = opts.flush_grid;
  s.flush_l2 = opts.flush_l2;
  s.flush_n16 = static_cast<long long>(s.flush_bytes / 16);

  char pci[64] = {0};
  d.cuDeviceGetPCIBusId(pci, sizeof pci, dev);
  SmClock clock;
  clock.open(opts.nvml_library, pci);
  double clock_max = clock.max();

  std::string method = "events", note;
  if (opts.method != "events") {
    std::string why;
    if (opts.cupti_library.empty())
      why = "no CUPTI library found";
    else if (trace().start(opts.cupti_library, why))
      method = "cupti";
    if (method != "cupti") {
      if (opts.method == "cupti") throw std::runtime_error("CUPTI requested but unavailable: " + why);
      note = "CUPTI unavailable (" + why + "): CUDA events used; times include launch gaps";
    }
  } else {
    note = "events requested";
  }
  bool calls = false;
  for (const Bench& b : benches) calls = calls || static_cast<bool>(b.call);
  if (calls && method == "events")
    note += "; a function's samples are events on the legacy default stream: work it queues on non-blocking "
            "streams may end after them";
  bool graph = opts.graph_reps > 0;
  if (graph && method != "cupti") {
    graph = false;
    note += "; graph replay needs CUPTI to separate samples: launched one by one";
  }
  if (graph && calls) {
    graph = false;
    note += "; a function cannot be replayed as a graph: called once per sample";
  }

  // Warm-up: modules are loaded; run every input set so first-touch and caches are out of the way.
  for (int w = 0; w < opts.warmup; ++w)
    for (const Bench& b : benches)
      for (int set = 0; set < b.input_sets; ++set) {
        s.enqueue(b, set, false);
        if (b.call) wait_for(s, b, "kernel execution (warm-up)");
      }
  check_wait(calls ? d.cuCtxSynchronize() : d.cuStreamSynchronize(s.stream), "kernel execution (warm-up)");
  if (method == "cupti") trace().drain();

  // Graph mode: one graph per bench and input set holding graph_reps complete samples.
  std::vector<std::vector<CUgraphExec>> execs(benches.size());
  std::vector<CUgraph> graphs;
  struct GraphCleanup {
    std::vector<std::vector<CUgraphExec>>& e;
    std::vector<CUgraph>& g;
    ~GraphCleanup() {
      for (auto& v : e)
        for (auto x : v) driver().cuGraphExecDestroy(x);
      for (auto x : g) driver().cuGraphDestroy(x);
    }
  } cleanup{execs, graphs};
  if (graph) {
    for (size_t i = 0; i < benches.size(); ++i)
      for (int set = 0; set < benches[i].input_sets; ++set) {
        check(d.cuStreamBeginCapture(s.stream, CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture");
        for (int r = 0; r < opts.graph_reps; ++r) s.enqueue(benches[i], set, false);
        CUgraph g = nullptr;
        check(d.cuStreamEndCapture(s.stream, &g), "cuStreamEndCapture");
        graphs.push_back(g);
        CUgraphExec e = nullptr;
        check(d.cuGraphInstantiateWithFlags(&e, g, 0), "cuGraphInstantiate");
        execs[i].push_back(e);
      }
  }

  std::vector<EntrySamples> results(benches.size());
  std::vector<StoppingRule> rules;
  rules.reserve(benches.size());
  for (size_t i = 0; i < benches.size(); ++i) rules.emplace_back(opts.stopping);
  std::vector<double> elapsed(benches.size(), 0.0);
  std::vector<int> counter(benches.size(), 0);
  for (auto& r : results) {
    r.method = method, r.method_note = note, r.clock_max_mhz = clock_max;
    if (graph) r.method += "+graph";
  }
  bool running = true;
  while (running) {
    running = false;
    for (size_t i = 0; i < benches.size(); ++i) {
      if (rules[i].done()) continue;
      running = true;
      const Bench& b = benches[i];
      int set = counter[i]++ % b.input_sets;
      unsigned c0 = clock.current();
      auto t0 = Clock::now();
      if (graph)
        check(d.cuGraphLaunch(execs[i][set], s.stream), "cuGraphLaunch");
      else
        s.enqueue(b, set, method == "events");
      wait_for(s, b, "kernel execution");
      elapsed[i] += std::chrono::duration<double>(Clock::now() - t0).count();
      unsigned c1 = clock.current();
      std::vector<double> got;
      if (method == "cupti") {
        got = b.call ? call_duration(trace().drain(), b.resets.at(set).size() + 1, results[i])
                     : sample_durations(trace().drain(), results[i].kernels);
        int expected = graph ? opts.graph_reps : 1;
        if (static_cast<int>(got.size()) < expected) results[i].samples_without_kernels += expected - got.size();
      } else {
        float ms = 0;
        check(d.cuEventElapsedTime(&ms, s.start, s.end), "cuEventElapsedTime");
        got.push_back(ms * 1e3);
      }
      unsigned c = (c0 && c1) ? std::min(c0, c1) : std::max(c0, c1);
      bool throttled = clock_max > 0 && c > 0 && c < opts.clock_floor * clock_max;
      bool accepted = false;
      for (double us : got) {
        if (throttled) {
          results[i].discarded_clock++;
          continue;
        }
        results[i].samples_us.push_back(us);
        results[i].clock_mhz.push_back(c);
        accepted = true;
        if (rules[i].add(us, elapsed[i])) break;
      }
      if (!accepted) rules[i].check(elapsed[i]);
    }
  }
  for (size_t i = 0; i < benches.size(); ++i) results[i].stop_reason = rules[i].reason();
  measure_steady(s, benches, opts, clock, clock_max, results);
  return results;
}

}  // namespace kopt
