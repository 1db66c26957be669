// Ranks of the distribution-free 95 % confidence interval of the median (the same rule as kopt.stats.median_ci_ranks):
// the count of samples below the true median is Binomial(n, 1/2), so P(X_(j) <= median <= X_(n+1-j)) = 1 - 2 P(B <= j-1)
// for the 1-based rank j.
#pragma once
#include <algorithm>
#include <cmath>

namespace kopt {

struct MedianCiRanks {
  long lo, hi;  // 0-based ranks into the sorted samples
  bool exact;   // false: n < 6, even (min, max) covers less than 95 %, and (min, max) is returned
};

inline MedianCiRanks median_ci_ranks(long n) {
  constexpr double kAlpha = 0.025;         // each tail of 95 %
  constexpr double kZ95 = 1.959963984540054;
  constexpr long kExactMaxN = 1000;        // above this, the normal approximation (2^-n would underflow soon after)
  if (n > kExactMaxN) {
    long j = std::max(1L, static_cast<long>(std::floor(n / 2.0 - kZ95 * std::sqrt(static_cast<double>(n)) / 2)));
    return {j - 1, n - j, true};
  }
  double pmf = std::ldexp(1.0, -static_cast<int>(n));  // P(B = 0)
  double cdf = 0;
  long j = 0;
  while (j < n) {
    cdf += pmf;  // now P(B <= j): the admissible 1-based rank is j + 1
    if (cdf > kAlpha) break;
    pmf *= static_cast<double>(n - j) / (j + 1);
    ++j;
  }
  if (j == 0) return {0, n - 1, false};
  return {j - 1, n - j, true};
}

}  // namespace kopt
