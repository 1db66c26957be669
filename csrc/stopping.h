// When to stop sampling: at least `min_samples` and `min_time`; then stop when the relative standard deviation
// reaches the target, or when the noise estimate has stopped moving (nvbench's stdrel idea: more samples would not
// change what we know), or at the time cap.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <string>

namespace kopt {

struct StoppingOptions {
  int min_samples = 10;
  double min_time = 0.1;     // seconds of measuring
  double max_time = 10.0;    // seconds: the cap
  double target_rel_stdev = 0.005;
  int stable_window = 32;    // noise estimates compared for stability
  double stable_tol = 0.05;  // relative spread of the window's noise estimates
  int max_samples = 100000;
};

class StoppingRule {
 public:
  explicit StoppingRule(StoppingOptions o = {}) : o_(o) {}

  // Adds one accepted sample; `elapsed` is the seconds measured so far. Returns true when sampling should stop.
  bool add(double sample, double elapsed) {
    ++n_;
    double delta = sample - mean_;  // Welford
    mean_ += delta / n_;
    m2_ += delta * (sample - mean_);
    return evaluate(elapsed);
  }

  // Re-evaluates without a new sample (all samples of a period were discarded, time still runs).
  bool evaluate(double elapsed) {
    if (elapsed >= o_.max_time) return finish("time cap reached (" + fmt(o_.max_time) + " s)");
    if (n_ >= o_.max_samples) return finish("sample cap reached");
    if (n_ < o_.min_samples || elapsed < o_.min_time) return false;
    double rel = rel_stdev();
    if (rel <= o_.target_rel_stdev) return finish("relative stdev " + fmt(rel * 100) + " % <= target");
    history_.push_back(rel);
    if (static_cast<int>(history_.size()) > o_.stable_window) history_.pop_front();
    if (static_cast<int>(history_.size()) == o_.stable_window) {
      auto [lo, hi] = std::minmax_element(history_.begin(), history_.end());
      double mid = 0.5 * (*lo + *hi);
      if (mid > 0 && (*hi - *lo) / mid <= o_.stable_tol)
        return finish("noise estimate stable at " + fmt(rel * 100) + " % over " + std::to_string(o_.stable_window) +
                      " samples");
    }
    return false;
  }

  double rel_stdev() const { return n_ > 1 && mean_ != 0 ? std::sqrt(m2_ / (n_ - 1)) / std::fabs(mean_) : INFINITY; }
  int samples() const { return n_; }
  bool done() const { return done_; }
  const std::string& reason() const { return reason_; }

 private:
  bool finish(std::string why) {
    done_ = true;
    reason_ = std::move(why);
    return true;
  }
  static std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
  }
  StoppingOptions o_;
  int n_ = 0;
  double mean_ = 0, m2_ = 0;
  std::deque<double> history_;
  bool done_ = false;
  std::string reason_;
};

}  // namespace kopt
