// kopt._harness: the C++ timing harness (pybind11). Loads libcuda, libcupti and NVML at run time.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "driver_api.h"
#include "measure.h"
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
  if (d.contains("stream")) l.stream = d["stream"].cast<int>();
  return l;
}

Bench to_bench(const py::dict& d) {
  Bench b;
  for (auto item : d["launches"]) b.launches.push_back(to_launch(item.cast<py::dict>()));
  for (auto set : d["resets"]) {
    std::vector<Reset> rs;
    for (auto r : set) {
      auto t = r.cast<std::tuple<uint64_t, uint64_t, unsigned, unsigned>>();
      rs.push_back({std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t)});
    }
    b.resets.push_back(rs);
  }
  b.input_sets = static_cast<int>(b.resets.size());
  for (const Launch& l : b.launches)
    if (static_cast<int>(l.params.size()) != b.input_sets)
      throw std::invalid_argument("every launch needs one parameter array per input set");
  return b;
}

StoppingOptions to_stopping(const py::dict& d) {
  StoppingOptions o;
  if (d.contains("min_samples")) o.min_samples = d["min_samples"].cast<int>();
  if (d.contains("min_time")) o.min_time = d["min_time"].cast<double>();
  if (d.contains("max_time")) o.max_time = d["max_time"].cast<double>();
  if (d.contains("target_rel_stdev")) o.target_rel_stdev = d["target_rel_stdev"].cast<double>();
  if (d.contains("stable_window")) o.stable_window = d["stable_window"].cast<int>();
  if (d.contains("stable_tol")) o.stable_tol = d["stable_tol"].cast<double>();
  if (d.contains("max_samples")) o.max_samples = d["max_samples"].cast<int>();
  return o;
}

}  // namespace

PYBIND11_MODULE(_harness, m) {
  m.doc() = "kopt timing harness: cold, interleaved kernel timing with CUPTI (or CUDA events) in C++";
  m.attr("ABI_VERSION") = 2;

  m.def("driver_status", [] {
    try {
      driver();
      return std::string();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }, "Empty when libcuda is usable, else why not.");

  py::class_<StoppingRule>(m, "StoppingRule", "The stopping rule, exposed for tests and planning")
      .def(py::init([](const py::dict& d) { return StoppingRule(to_stopping(d)); }), py::arg("options") = py::dict())
      .def("add", &StoppingRule::add, py::arg("sample"), py::arg("elapsed"))
      .def("evaluate", &StoppingRule::evaluate, py::arg("elapsed"))
      .def_property_readonly("rel_stdev", &StoppingRule::rel_stdev)
      .def_property_readonly("samples", &StoppingRule::samples)
      .def_property_readonly("done", &StoppingRule::done)
      .def_property_readonly("reason", &StoppingRule::reason);

  m.def("measure", [](const py::list& benches, const py::dict& options) {
    std::vector<Bench> bs;
    for (auto b : benches) bs.push_back(to_bench(b.cast<py::dict>()));
    MeasureOptions o;
    o.stopping = to_stopping(options);
    if (options.contains("method")) o.method = options["method"].cast<std::string>();
    if (options.contains("cupti_library") && !options["cupti_library"].is_none())
      o.cupti_library = options["cupti_library"].cast<std::string>();
    if (options.contains("graph_reps")) o.graph_reps = options["graph_reps"].cast<int>();
    if (options.contains("warmup")) o.warmup = options["warmup"].cast<int>();
    if (options.contains("clock_floor")) o.clock_floor = options["clock_floor"].cast<double>();
    if (options.contains("flush_function")) o.flush_function = options["flush_function"].cast<uint64_t>();
    if (options.contains("flush_grid")) o.flush_grid = options["flush_grid"].cast<unsigned>();
    if (options.contains("flush_l2")) o.flush_l2 = options["flush_l2"].cast<bool>();
    std::vector<BenchResult> rs;
    {
      py::gil_scoped_release release;  // the loop is pure C++: no Python between samples
      rs = measure(bs, o);
    }
    py::list out;
    for (const BenchResult& r : rs) {
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
      out.append(d);
    }
    return out;
  }, py::arg("benches"), py::arg("options") = py::dict(),
     "Time each bench (interleaved per sample) on the current CUDA context; raises RuntimeError on CUDA errors.");
}
