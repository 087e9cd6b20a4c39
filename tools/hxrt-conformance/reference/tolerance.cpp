#include "reference/tolerance.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hxrt_conformance {

Tolerance element_tolerance(hx_dtype dtype) {
  switch (dtype) {
    case HX_DTYPE_F64: return {1e-12};
    case HX_DTYPE_F32: return {1e-5};
    case HX_DTYPE_F16: return {1e-3};
    case HX_DTYPE_BF16: return {1e-2};
    case HX_DTYPE_I32:
    case HX_DTYPE_I64:
    case HX_DTYPE_BOOL:
    case HX_DTYPE_INVALID: break;
  }
  return {0};
}

Tolerance reduction_tolerance(hx_dtype dtype, int64_t length) {
  return {element_tolerance(dtype).bound * static_cast<double>(std::max<int64_t>(length, 1))};
}

bool within(double got, double expected, Tolerance tolerance) {
  if (tolerance.bound == 0) return got == expected;
  // Written so that a NaN on either side compares false.
  return std::fabs(got - expected) <= tolerance.bound * std::max(1.0, std::fabs(expected));
}

std::string tolerance_text(Tolerance tolerance) {
  if (tolerance.bound == 0) return "exact match";
  std::ostringstream text;
  text << "tolerance " << tolerance.bound;
  return text.str();
}

}  // namespace hxrt_conformance
