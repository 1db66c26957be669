// The stopping criteria by name, each with its parameters (defaults and one-line descriptions). Adding a criterion:
// one header and one entry in registry.cpp.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "criterion.h"

namespace kopt {

struct Param {
  std::string name;
  double value;  // the default
  std::string description;
  bool integer = false;
};

struct CriterionInfo {
  std::string name, description;
  std::vector<Param> params;
  std::function<std::unique_ptr<Criterion>(const Params&)> make;  // given every parameter
};

inline const char* const kDefaultCriterion = "stdrel-or-stable";

const std::vector<CriterionInfo>& criteria();

// The criterion `name` with `given` over its defaults. Throws std::invalid_argument naming an unknown criterion or
// parameter (and the known ones), or a bad value.
std::unique_ptr<Criterion> make_criterion(const std::string& name, const Params& given);

}  // namespace kopt
