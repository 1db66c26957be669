// kopt._harness: the C++ timing harness (pybind11). Loads libcuda, libcupti and NVML at run time.
#include <pybind11/eval.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "criteria/median_ci.h"
#include "driver_api.h"
#include "measure.h"
#include "options.h"
#include "stopping.h"

namespace py = pybind11;
using namespace kopt;

namespace {

Launch to_launch(const py::dict& d) {
  Launch l;
  l.function = d["function"].cast<uint64_t>();
  l.grid = d["grid"].cast<std::array<unsigned, 3>>();
  l.block = d["block"].cast<std::array<unsigned, 3>>();
  l.smem = d["smem"].cast<unsigned>();
  if (d.contains("cluster") && !d["cluster"].is_none()) l.cluster = d["cluster"].cast<std::array<unsigned, 3>>();
  l.params = d["params"].cast<std::vector<uint64_t>>();
  if (d.contains("steady_params")) l.steady_params = d["steady_params"].cast<std::vector<uint64_t>>();
  if (d.contains("stream")) l.stream = d["stream"].cast<int>();
  return l;
}

// Per input set: (ptr, bytes, pattern, width) memsets.
std::vector<std::vector<Reset>> to_resets(const py::handle& sets) {
  std::vector<std::vector<Reset>> out;
  for (auto set : sets) {
    std::vector<Reset> rs;
    for (auto r : set) {
      auto t = r.cast<std::tuple<uint64_t, uint64_t, unsigned, unsigned>>();
      rs.push_back({std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t)});
    }
    out.push_back(rs);
  }
  return out;
}

Bench to_bench(const py::dict& d) {
  Bench b;
  if (d.contains("call") && !d["call"].is_none()) {
    // Held by a shared pointer: the Bench may be copied without the GIL; the object itself is only touched with it.
    auto fn = std::shared_ptr<py::object>(new py::object(d["call"]), [](py::object* o) {
      py::gil_scoped_acquire gil;
      delete o;
    });
    b.call = [fn]() {
      py::gil_scoped_acquire gil;
      return (*fn)().cast<bool>();  // the caller's wrapper catches its exceptions and returns false
    };
  }
  for (auto item : d["launches"]) b.launches.push_back(to_launch(item.cast<py::dict>()));
  b.resets = to_resets(d["resets"]);
  b.input_sets = static_cast<int>(b.resets.size());
  if (d.contains("steady_resets")) b.steady_resets = to_resets(d["steady_resets"]);
  b.steady_sets = static_cast<int>(b.steady_resets.size());
  if (b.call && b.steady_sets) throw std::invalid_argument("a function bench has no steady-state sets");
  for (const Launch& l : b.launches) {
    if (static_cast<int>(l.params.size()) != b.input_sets)
      throw std::invalid_argument("every launch needs one parameter array per input set");
    if (static_cast<int>(l.steady_params.size()) != b.steady_sets)
      throw std::invalid_argument("every launch needs one parameter array per steady-state set");
  }
  return b;
}

// Defined in Python so that Python code can construct (and raise) it with the same attributes the harness sets.
const char* const kCudaErrorSource = R"(
class CudaError(RuntimeError):
    """A CUDA driver call in the harness failed. ``name``: the error (CUDA_ERROR_...); ``call``: what the harness
    was doing; ``code``: the CUresult; ``asynchronous``: reported while waiting for queued work, so it came from a
    kernel, which may have left the context unusable. Whether ``name`` is sticky is kopt.rules.CUDA_STICKY's call."""

    def __init__(self, name, call, code=0, asynchronous=False):
        super().__init__(f"{call}: {name}")
        self.name, self.call, self.code, self.asynchronous = name, call, code, asynchronous
)";

}  // namespace

PYBIND11_MODULE(_harness, m) {
  m.doc() = "kopt timing harness: cold, interleaved kernel timing with CUPTI (or CUDA events) in C++";
  m.attr("ABI_VERSION") = 5;

  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<py::object> cuda_error;
  cuda_error.call_once_and_store_result([] {
    py::dict scope;
    scope["__name__"] = "kopt._harness";
    py::exec(kCudaErrorSource, scope);
    return py::object(scope["CudaError"]);
  });
  m.attr("CudaError") = cuda_error.get_stored();
  py::register_local_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const CudaError& e) {
      py::object type = cuda_error.get_stored();
      py::object exc = type(e.name, e.call, static_cast<int>(e.code), e.asynchronous);
      PyErr_SetObject(type.ptr(), exc.ptr());
    }
  });

  m.def("driver_status", [] {
    try {
      driver();
      return std::string();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }, "Empty when libcuda is usable, else why not.");

  m.def("defaults", &option_defaults, "Every option of measure() with its default.");
  m.def("criteria", &criteria_schema, "The stopping criteria: name, description and parameters with defaults.");
  m.def("median_ci_ranks", [](long n) {
    if (n < 1) throw py::value_error("n must be >= 1");
    MedianCiRanks r = median_ci_ranks(n);
    return py::make_tuple(r.lo, r.hi, r.exact);
  }, py::arg("n"), "0-based ranks (lo, hi, exact) of the 95 % CI of the median that the ci-width criterion uses.");

  py::class_<StoppingRule>(m, "StoppingRule", "The caps and a criterion, fed samples by hand (tests, planning)")
      .def(py::init([](const py::dict& d) { return StoppingRule(stopping_options(d)); }),
           py::arg("options") = py::dict(), "The stopping keys of measure()'s options: caps, stop, stop_params.")
      .def("add", &StoppingRule::add, py::arg("sample_us"), py::arg("elapsed_s"),
           "Adds one sample; True when sampling should stop.")
      .def("check", &StoppingRule::check, py::arg("elapsed_s"), "Checks again without a sample.")
      .def_property_readonly("samples", &StoppingRule::samples)
      .def_property_readonly("done", &StoppingRule::done)
      .def_property_readonly("reason", &StoppingRule::reason);

  m.def("measure", [](const py::list& benches, const py::dict& options) {
    std::vector<Bench> bs;
    for (auto b : benches) bs.push_back(to_bench(b.cast<py::dict>()));
    MeasureOptions o = measure_options(options);
    std::vector<EntrySamples> rs;
    {
      py::gil_scoped_release release;  // the loop is pure C++: no Python between samples
      rs = measure(bs, o);
    }
    py::list out;
    for (const EntrySamples& r : rs) {
      py::dict d;
      d["samples_us"] = r.samples_us;
      d["discarded_clock"] = r.discarded_clock;
      d["clock_mhz"] = r.clock_mhz;
      d["clock_max_mhz"] = r.clock_max_mhz;
      d["stop_reason"] = r.stop_reason;
      d["method"] = r.method;
      d["method_note"] = r.method_note;
      d["kernels"] = r.kernels;
      d["samples_without_kernels"] = r.samples_without_kernels;
      d["steady_samples_us"] = r.steady_us;
      d["steady_discarded_clock"] = r.steady_discarded_clock;
      d["steady_warmup"] = r.steady_warmup;
      d["steady_batch"] = r.steady_batch;
      d["steady_stop_reason"] = r.steady_stop_reason;
      d["steady_note"] = r.steady_note;
      out.append(d);
    }
    return out;
  }, py::arg("benches"), py::arg("options") = py::dict(),
     "Time each bench (interleaved per sample) on the current CUDA context; raises CudaError on CUDA errors and "
     "ValueError on unknown or bad options (see defaults() and criteria()). A bench is launches with resets per "
     "input set, or a 'call': a function run once per sample (after the flush) that returns False to stop. A "
     "launch bench may add 'steady_resets' (per steady-state set) and each launch 'steady_params': after the cold "
     "samples, batches of back-to-back samples rotate over those sets (steady_samples_us).");
}
