// Mean and variance updated one sample at a time (Welford), for the relative standard deviation.
#pragma once
#include <cmath>

namespace kopt {

struct RunningStats {
  long n = 0;
  double mean = 0, m2 = 0;

  void add(double x) {
    ++n;
    double delta = x - mean;
    mean += delta / n;
    m2 += delta * (x - mean);
  }
  // Sample standard deviation over the mean; infinite until there are two samples.
  double rel_stdev() const { return n > 1 && mean != 0 ? std::sqrt(m2 / (n - 1)) / std::fabs(mean) : INFINITY; }
};

}  // namespace kopt
