#include "reference/compare.hpp"

#include <sstream>

namespace hxrt_conformance {
namespace {

// Enough significant digits to tell apart any two values of the dtype.
int significant_digits(hx_dtype dtype) {
  switch (dtype) {
    case HX_DTYPE_F64: return 17;
    case HX_DTYPE_F16: return 5;
    case HX_DTYPE_BF16: return 4;
    case HX_DTYPE_I64: return 19;
    case HX_DTYPE_U64: return 20;
    case HX_DTYPE_I32:
    case HX_DTYPE_U32: return 10;
    default: return 9;  // f32 (and what the narrower integers hold)
  }
}

std::string value_text(double value, hx_dtype dtype) {
  std::ostringstream text;
  text.precision(significant_digits(dtype));
  text << value;
  return text.str();
}

Shape coordinates(size_t index, const Shape& shape) {
  Shape at(shape.size());
  auto rest = static_cast<int64_t>(index);
  for (size_t axis = shape.size(); axis-- > 0;) {
    at[axis] = rest % shape[axis];
    rest /= shape[axis];
  }
  return at;
}

}  // namespace

std::optional<Mismatch> first_mismatch(const HostTensor& expected, const std::vector<double>& got,
                                       Tolerance tolerance) {
  for (size_t i = 0; i < expected.values.size(); ++i) {
    if (!within(got[i], expected.values[i], tolerance)) {
      return Mismatch{i, got[i], expected.values[i]};
    }
  }
  return std::nullopt;
}

std::string mismatch_text(const Mismatch& mismatch, const TensorSpec& output) {
  std::string where = "element " + std::to_string(mismatch.index);
  if (output.shape.size() > 1) {
    where += " (at " + shape_text(coordinates(mismatch.index, output.shape)) + ")";
  }
  return where + " is " + value_text(mismatch.got, output.dtype) + ", the reference is " +
         value_text(mismatch.expected, output.dtype);
}

}  // namespace hxrt_conformance
