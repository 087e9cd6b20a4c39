#include "reference/tolerance.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hxrt_conformance {

bool within(double got, double expected, Tolerance tolerance) {
  if (std::isnan(expected)) return std::isnan(got);  // an op that keeps NaN (HardSigmoid)
  if (tolerance.bound == 0) return got == expected;
  // Written so that a NaN got compares false.
  return std::fabs(got - expected) <= tolerance.bound * std::max(1.0, std::fabs(expected));
}

std::string tolerance_text(Tolerance tolerance) {
  if (tolerance.bound == 0) return "exact match";
  std::ostringstream text;
  text << "tolerance " << tolerance.bound;
  return text.str();
}

}  // namespace hxrt_conformance
