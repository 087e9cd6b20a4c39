// How far a kernel's element may be from the reference value. One bound serves as both an
// absolute and a relative tolerance: |got - expected| <= bound * max(1, |expected|), since the
// kit's inputs are of order 1 and the rounding error of a result grows with its magnitude.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <string>

namespace hxrt_conformance {

struct Tolerance {
  double bound = 0;  // 0: the element must be exact (integers, bool)
};

// Whether `got` is close enough to `expected`; NaN never is.
bool within(double got, double expected, Tolerance tolerance);

// "tolerance 1e-05", "exact match".
std::string tolerance_text(Tolerance tolerance);

}  // namespace hxrt_conformance
