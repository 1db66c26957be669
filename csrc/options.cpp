#include "options.h"

#include <pybind11/stl.h>

#include <functional>
#include <vector>

namespace py = pybind11;

namespace kopt {
namespace {

struct Option {
  const char* name;
  bool stopping;  // a cap or the criterion: also a key of StoppingRule()
  std::function<void(MeasureOptions&, py::handle)> set;
  std::function<py::object(const MeasureOptions&)> get;
};

template <typename T>
Option field(const char* name, T MeasureOptions::*m) {
  return {name, false, [m](MeasureOptions& o, py::handle v) { o.*m = v.cast<T>(); },
          [m](const MeasureOptions& o) { return py::cast(o.*m); }};
}

template <typename T>
Option stopping(const char* name, T StoppingOptions::*m) {
  return {name, true, [m](MeasureOptions& o, py::handle v) { o.stopping.*m = v.cast<T>(); },
          [m](const MeasureOptions& o) { return py::cast(o.stopping.*m); }};
}

const std::vector<Option>& table() {
  static const std::vector<Option> t = {
      stopping("min_samples", &StoppingOptions::min_samples),
      stopping("min_time", &StoppingOptions::min_time),
      stopping("max_time", &StoppingOptions::max_time),
      stopping("max_samples", &StoppingOptions::max_samples),
      stopping("stop", &StoppingOptions::criterion),
      stopping("stop_params", &StoppingOptions::params),
      field("method", &MeasureOptions::method),
      field("cupti_library", &MeasureOptions::cupti_library),
      field("graph_reps", &MeasureOptions::graph_reps),
      field("warmup", &MeasureOptions::warmup),
      field("clock_floor", &MeasureOptions::clock_floor),
      field("flush_function", &MeasureOptions::flush_function),
      field("flush_grid", &MeasureOptions::flush_grid),
      field("flush_l2", &MeasureOptions::flush_l2),
      field("steady_max_time", &MeasureOptions::steady_max_time),
  };
  return t;
}

// Reads `d` over the defaults; None leaves a key's default.
MeasureOptions parse(const py::dict& d, bool stopping_only) {
  MeasureOptions o;
  for (auto [k, v] : d) {
    std::string key = py::str(k);
    const Option* opt = nullptr;
    std::string known;
    for (const Option& x : table()) {
      if (stopping_only && !x.stopping) continue;
      if (key == x.name) opt = &x;
      known += (known.empty() ? "" : ", ") + std::string(x.name);
    }
    if (!opt) throw py::value_error("unknown option '" + key + "'; known: " + known);
    if (v.is_none()) continue;
    try {
      opt->set(o, v);
    } catch (const py::cast_error&) {
      std::string want = py::str(py::type::of(opt->get(o)).attr("__name__"));
      throw py::value_error("option '" + key + "' must be a " + want + ", got " + std::string(py::repr(v)));
    }
  }
  if (o.method != "auto" && o.method != "cupti" && o.method != "events")
    throw py::value_error("option 'method' must be auto, cupti or events, got '" + o.method + "'");
  make_criterion(o.stopping.criterion, o.stopping.params);  // rejects an unknown criterion or parameter now
  return o;
}

}  // namespace

MeasureOptions measure_options(const py::dict& d) { return parse(d, false); }

StoppingOptions stopping_options(const py::dict& d) { return parse(d, true).stopping; }

py::dict option_defaults() {
  MeasureOptions o;
  py::dict out;
  for (const Option& x : table()) out[x.name] = x.get(o);
  return out;
}

py::list criteria_schema() {
  py::list out;
  for (const CriterionInfo& c : criteria()) {
    py::dict params;
    for (const Param& p : c.params) {
      py::object value = p.integer ? py::object(py::int_(static_cast<long>(p.value))) : py::object(py::float_(p.value));
      params[p.name.c_str()] = py::dict(py::arg("default") = value, py::arg("description") = p.description,
                                        py::arg("integer") = p.integer);
    }
    out.append(py::dict(py::arg("name") = c.name, py::arg("description") = c.description,
                        py::arg("params") = params));
  }
  return out;
}

}  // namespace kopt
