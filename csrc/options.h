// The options dict of measure() and StoppingRule(): one table of keys over the C++ structs, so an unknown key is an
// error and defaults() reports the defaults those structs hold.
#pragma once
#include <pybind11/pybind11.h>

#include "measure.h"

namespace kopt {

// Throw ValueError naming an unknown key (and the known ones), a value of the wrong type, or a bad criterion.
MeasureOptions measure_options(const pybind11::dict& d);
StoppingOptions stopping_options(const pybind11::dict& d);  // the caps and the criterion keys only
// Every key's default; "stop_params" is empty: each criterion's own defaults apply (see criteria_schema()).
pybind11::dict option_defaults();
// Each criterion: name, description and parameters (default, description, integer).
pybind11::list criteria_schema();

}  // namespace kopt
