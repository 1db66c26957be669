// kopt._harness: the C++ timing harness (pybind11). Loads libcuda/libcupti at run time.
#include <pybind11/pybind11.h>

namespace py = pybind11;

PYBIND11_MODULE(_harness, m) {
  m.doc() = "kopt timing harness (CUDA driver and CUPTI loaded at run time)";
  m.attr("ABI_VERSION") = 1;
}
