// stable: the noise estimate (relative standard deviation) has stopped moving. A noisy kernel never reaches a stdrel
// target; once its noise is known, more samples would not change what we know (nvbench's stdrel idea).
#pragma once
#include <algorithm>
#include <deque>

#include "criterion.h"
#include "running_stats.h"

namespace kopt {

class Stable : public Criterion {
 public:
  // Done when the last `window` estimates (one per sample) spread by at most `tol` of their midpoint.
  Stable(int window, double tol) : window_(window), tol_(tol) {}

  void add(double sample_us, double) override {
    stats_.add(sample_us);
    if (stats_.n < 2) return;  // no estimate yet
    history_.push_back(stats_.rel_stdev());
    if (static_cast<int>(history_.size()) > window_) history_.pop_front();
  }
  bool done() const override {
    if (static_cast<int>(history_.size()) < window_) return false;
    auto [lo, hi] = std::minmax_element(history_.begin(), history_.end());
    double mid = 0.5 * (*lo + *hi);
    return mid > 0 && (*hi - *lo) / mid <= tol_;
  }
  std::string reason() const override {
    return "noise estimate stable at " + fmt(stats_.rel_stdev() * 100) + " % over " + std::to_string(window_) +
           " samples";
  }

 private:
  int window_;
  double tol_;
  RunningStats stats_;
  std::deque<double> history_;
};

}  // namespace kopt
