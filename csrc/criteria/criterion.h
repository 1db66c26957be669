// A stopping criterion: fed every accepted sample, it says when more samples would not change what we know. The caps
// (../stopping.h) always apply around it; criteria are chosen by name from the registry (registry.h).
#pragma once
#include <cstdio>
#include <map>
#include <string>

namespace kopt {

using Params = std::map<std::string, double>;  // a criterion's parameters by name

class Criterion {
 public:
  virtual ~Criterion() = default;
  // One accepted sample (microseconds); `elapsed_s` is the seconds measured so far.
  virtual void add(double sample_us, double elapsed_s) = 0;
  virtual bool done() const = 0;
  // Why it is done, for the result's stop reason.
  virtual std::string reason() const = 0;
};

// Three significant digits, for stop reasons.
inline std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace kopt
