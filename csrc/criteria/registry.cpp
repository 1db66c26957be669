#include "registry.h"

#include <cmath>
#include <stdexcept>

#include "any_of.h"
#include "ci_width.h"
#include "stable.h"
#include "stdrel.h"

namespace kopt {
namespace {

const Param kMaxRelStdev{"max_rel_stdev", 0.005, "relative standard deviation of the samples to reach"};
const Param kWindow{"window", 32, "noise estimates (one per sample) that must agree", true};
const Param kTol{"tol", 0.05, "spread allowed among those estimates, relative to their midpoint"};
const Param kMaxWidth{"max_width", 0.01, "width of the median's 95 % confidence interval to reach, relative to it"};

std::unique_ptr<Criterion> stdrel(const Params& p) { return std::make_unique<StdRel>(p.at("max_rel_stdev")); }
std::unique_ptr<Criterion> stable(const Params& p) {
  return std::make_unique<Stable>(static_cast<int>(p.at("window")), p.at("tol"));
}

std::string names(const std::vector<std::string>& xs) {
  std::string out;
  for (const auto& x : xs) out += (out.empty() ? "" : ", ") + x;
  return out;
}

}  // namespace

const std::vector<CriterionInfo>& criteria() {
  static const std::vector<CriterionInfo> all = {
      {"stdrel", "the relative standard deviation of the samples is at or below a target", {kMaxRelStdev}, stdrel},
      {"stable", "the noise estimate has stopped moving over a window of samples", {kWindow, kTol}, stable},
      {"ci-width", "the median's distribution-free 95 % confidence interval is narrow enough", {kMaxWidth},
       [](const Params& p) { return std::make_unique<CiWidth>(p.at("max_width")); }},
      {kDefaultCriterion, "stdrel or stable, whichever is met first (the default)", {kMaxRelStdev, kWindow, kTol},
       [](const Params& p) {
         std::vector<std::unique_ptr<Criterion>> parts;
         parts.push_back(stdrel(p));
         parts.push_back(stable(p));
         return std::make_unique<AnyOf>(std::move(parts));
       }},
  };
  return all;
}

std::unique_ptr<Criterion> make_criterion(const std::string& name, const Params& given) {
  const CriterionInfo* info = nullptr;
  std::vector<std::string> known;
  for (const CriterionInfo& c : criteria()) {
    known.push_back(c.name);
    if (c.name == name) info = &c;
  }
  if (!info) throw std::invalid_argument("unknown stopping criterion '" + name + "'; known: " + names(known));
  Params p;
  known.clear();
  for (const Param& param : info->params) {
    p[param.name] = param.value;
    known.push_back(param.name);
  }
  for (const auto& [key, value] : given) {
    if (!p.count(key))
      throw std::invalid_argument("unknown parameter '" + key + "' of stopping criterion '" + name +
                                  "'; known: " + (known.empty() ? "none" : names(known)));
    p[key] = value;
  }
  for (const Param& param : info->params) {
    double v = p[param.name];
    if (!std::isfinite(v) || v < 0 || (param.integer && (v < 1 || v != std::floor(v))))
      throw std::invalid_argument("parameter '" + param.name + "' of stopping criterion '" + name + "' must be " +
                                  (param.integer ? "a whole number >= 1" : "a finite number >= 0") + ", got " +
                                  fmt(v));
  }
  return info->make(p);
}

}  // namespace kopt
