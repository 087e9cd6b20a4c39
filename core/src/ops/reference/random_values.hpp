// The seeded inputs of the reference cases. Integers stay small so that no sum or product of
// a case overflows and every result is exact in double; floats are rounded to their dtype, so
// that the reference computes on exactly the values a kernel receives.
#pragma once

#include <cstdint>
#include <random>

#include "hxrt/dtype.hpp"
#include "hxrt/op_reference.hpp"
#include "hxrt/shape.hpp"

namespace hxrt::detail {

enum class ValueRange {
  kSmall,    // floats in [-1, 1], integers in [-20, 20]
  kDivisor,  // nonzero: floats with magnitude in [0.25, 1], integers in [-7, 7]
  kWide,     // floats in [-100, 100], integers in [-100, 100], about one in eight exactly 0
  // Floats in [-10, 10], integers in [-10, 10]: exp stays finite in every dtype there (f16's
  // overflows above 11.09), and erf covers its whole curve before it flattens to -1 and 1.
  kModerate,
  // Floats in [0.001, 100], as many per decade (log-uniform), integers in [1, 100]: the
  // domain of log and sqrt, small values included.
  kPositive,
  // Multiples of 0.25 in [-10, 10], integers in [-10, 10]: whole numbers, halves (the ties of
  // rounding) and the values between, all exact in every floating dtype.
  kQuarters,
  // Whole numbers in [-3, 3] in every dtype: so few values that operands often tie, which
  // comparisons, Min and Max must get right.
  kFew,
};

class RandomValues {
 public:
  explicit RandomValues(uint64_t seed);

  // Random elements of `dtype` (bool: 0 or 1), each representable in it: the unsigned dtypes
  // take the magnitudes of the range's values.
  ReferenceTensor tensor(DType dtype, const Shape& shape, ValueRange range = ValueRange::kSmall);
  // One value in [low, high].
  double uniform(double low, double high);

 private:
  double element(DType dtype, ValueRange range);
  // The element as the range gives it for a signed dtype; the unsigned ones take its magnitude.
  double signed_element(DType dtype, ValueRange range);
  int integer(int low, int high);

  std::mt19937_64 engine_;
};

}  // namespace hxrt::detail
