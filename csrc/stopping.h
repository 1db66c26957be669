// When to stop sampling: the caps always apply (at least `min_samples` and `min_time`, at most `max_time` and
// `max_samples`); between them, a criterion chosen by name (criteria/registry.h) decides.
#pragma once
#include <memory>
#include <string>

#include "criteria/registry.h"

namespace kopt {

struct StoppingOptions {
  int min_samples = 10;
  double min_time = 0.1;  // seconds of measuring
  double max_time = 10.0;  // seconds: the time cap
  int max_samples = 100000;
  std::string criterion = kDefaultCriterion;
  Params params;  // the criterion's, over its defaults
};

class StoppingRule {
 public:
  explicit StoppingRule(const StoppingOptions& o) : o_(o), criterion_(make_criterion(o.criterion, o.params)) {}

  // Adds one accepted sample; `elapsed` is the seconds measured so far. Returns true when sampling should stop.
  bool add(double sample_us, double elapsed) {
    ++n_;
    criterion_->add(sample_us, elapsed);
    return check(elapsed);
  }

  // Checks again without a new sample (all samples of a period were discarded, but time still runs).
  bool check(double elapsed) {
    if (done_) return true;
    if (elapsed >= o_.max_time) return finish("time cap reached (" + fmt(o_.max_time) + " s)");
    if (n_ >= o_.max_samples) return finish("sample cap reached (" + std::to_string(o_.max_samples) + ")");
    if (n_ < o_.min_samples || elapsed < o_.min_time) return false;
    if (criterion_->done()) return finish(criterion_->reason());
    return false;
  }

  int samples() const { return n_; }
  bool done() const { return done_; }
  const std::string& reason() const { return reason_; }

 private:
  bool finish(std::string why) {
    done_ = true;
    reason_ = std::move(why);
    return true;
  }
  StoppingOptions o_;
  std::unique_ptr<Criterion> criterion_;
  int n_ = 0;
  bool done_ = false;
  std::string reason_;
};

}  // namespace kopt
