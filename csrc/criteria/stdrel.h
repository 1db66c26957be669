// stdrel: the relative standard deviation of the samples is at or below a target.
#pragma once
#include "criterion.h"
#include "running_stats.h"

namespace kopt {

class StdRel : public Criterion {
 public:
  explicit StdRel(double max_rel_stdev) : max_(max_rel_stdev) {}
  void add(double sample_us, double) override { stats_.add(sample_us); }
  bool done() const override { return stats_.rel_stdev() <= max_; }
  std::string reason() const override {
    return "relative stdev " + fmt(stats_.rel_stdev() * 100) + " % <= target " + fmt(max_ * 100) + " %";
  }

 private:
  double max_;
  RunningStats stats_;
};

}  // namespace kopt
