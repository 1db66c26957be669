// The timed loop: samples (cold by default: L2 flushed; outputs reset) of one or more benchmarks, interleaved per
// sample, in C++.
#pragma once
#include <cuda.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "stopping.h"

namespace kopt {

struct Launch {
  uint64_t function;                 // CUfunction
  std::array<unsigned, 3> grid, block;
  unsigned smem = 0;
  std::array<unsigned, 3> cluster{0, 0, 0};  // all zero: no cluster attribute
  std::vector<uint64_t> params;      // per input set: address of the void* array for cuLaunchKernel
  std::vector<uint64_t> steady_params;  // per steady-state set (empty: no steady-state batches)
  int stream = 0;                    // 0: the main stream; 1: a second stream forked after the flush (or separator), joined at the end
};

struct Reset {  // a memset done before each sample, outside the timed region (poisons outputs, scratch)
  uint64_t ptr, bytes;
  unsigned pattern, width;  // width in bytes: 1, 2 or 4 (8-byte patterns repeat their 32-bit half)
};

struct Bench {
  std::vector<Launch> launches;
  std::vector<std::vector<Reset>> resets;  // per input set
  int input_sets = 1;
  // Steady state (after the cold samples): sets of the same buffers, more than twice the L2 in all, that batches of
  // back-to-back samples rotate over; per set, the resets done before each of its samples (scratch only: outputs
  // are not poisoned, which would add a write of every output to the batch).
  std::vector<std::vector<Reset>> steady_resets;
  int steady_sets = 0;
  // Instead of launches: a function (the caller's Python code) that issues its own GPU work on any stream. It runs
  // after the flush has completed; the sample is its activity's span (kernels and memsets, every stream). It returns
  // false to stop measuring (it failed; the caller keeps the reason).
  std::function<bool()> call;
};

struct MeasureOptions {
  StoppingOptions stopping;
  std::string method = "auto";  // auto | cupti | events
  std::string cupti_library;    // path of libcupti for auto/cupti
  int graph_reps = 0;           // >0: replay a captured graph of this many samples (needs CUPTI)
  int warmup = 2;               // untimed runs of every input set before sampling
  double clock_floor = 0.75;    // discard samples taken below this fraction of the max SM clock
  std::string nvml_library = "libnvidia-ml.so.1";
  // A kernel `kopt_l2_flush(const int4* buf, long long n16, int4* sink)` that reads the flush buffer: it leaves L2
  // clean (as Nsight Compute's cache control does). 0: flush with a memset, which leaves L2 full of dirty lines that
  // the timed kernel must write back.
  uint64_t flush_function = 0;
  unsigned flush_grid = 0;
  bool flush_l2 = true;  // false: warm timing (inputs may stay in L2 between samples)
  double steady_max_time = 2.0;  // seconds of steady-state batches at most (per bench; 0: none)
};

// What one bench's sampling produced.
struct EntrySamples {
  std::vector<double> samples_us;
  int discarded_clock = 0;
  std::vector<double> clock_mhz;  // per accepted sample, the lower of the readings before and after
  double clock_max_mhz = 0;
  std::string stop_reason, method, method_note;
  std::map<std::string, int> kernels;  // every kernel seen in samples (name -> count), declared or not
  int samples_without_kernels = 0;
  // Steady state: per-sample spans from batches of back-to-back samples over the steady sets (see measure.cpp).
  std::vector<double> steady_us;
  int steady_discarded_clock = 0;
  int steady_warmup = 0, steady_batch = 0;  // per batch: untimed samples first, then timed ones
  std::string steady_stop_reason, steady_note;  // note: why there are none, or what went wrong
};

std::vector<EntrySamples> measure(const std::vector<Bench>& benches, const MeasureOptions& opts);

}  // namespace kopt
