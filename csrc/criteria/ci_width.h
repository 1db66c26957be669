// ci-width: the distribution-free 95 % confidence interval of the median is narrower than a fraction of the median.
// Unlike stdrel it does not assume the samples are spread symmetrically: rare slow outliers widen a stdev a lot, the
// median's interval little.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "criterion.h"
#include "median_ci.h"

namespace kopt {

class CiWidth : public Criterion {
 public:
  explicit CiWidth(double max_width) : max_(max_width) {}

  // Re-evaluated whenever the count has grown by 1/64 (at every sample below 128): each evaluation merges the new
  // samples into the sorted ones in O(n), so a long run stays cheap.
  void add(double sample_us, double) override {
    samples_.push_back(sample_us);
    if (samples_.size() >= next_) evaluate();
  }
  bool done() const override { return width_ <= max_; }
  std::string reason() const override {
    return "95 % CI of the median " + fmt(width_ * 100) + " % wide <= target " + fmt(max_ * 100) + " %";
  }

 private:
  void evaluate() {
    auto tail = samples_.begin() + sorted_;
    std::sort(tail, samples_.end());
    std::inplace_merge(samples_.begin(), tail, samples_.end());
    sorted_ = samples_.size();
    next_ = sorted_ + std::max<size_t>(1, sorted_ / 64);
    long n = static_cast<long>(sorted_);
    MedianCiRanks r = median_ci_ranks(n);
    double median = n % 2 ? samples_[n / 2] : 0.5 * (samples_[n / 2 - 1] + samples_[n / 2]);
    width_ = r.exact && median > 0 ? (samples_[r.hi] - samples_[r.lo]) / median : INFINITY;
  }

  double max_;
  std::vector<double> samples_;  // sorted up to sorted_
  size_t sorted_ = 0, next_ = 1;
  double width_ = INFINITY;      // at the last evaluation, relative to the median
};

}  // namespace kopt
