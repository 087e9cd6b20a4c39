#include "ops/reference/random_values.hpp"

#include <cmath>

#include "ops/reference/reference_tensors.hpp"

namespace hxrt::detail {

RandomValues::RandomValues(uint64_t seed) : engine_(seed) {}

double RandomValues::uniform(double low, double high) {
  return std::uniform_real_distribution<double>(low, high)(engine_);
}

int RandomValues::integer(int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(engine_);
}

double RandomValues::element(DType dtype, ValueRange range) {
  if (dtype == DType::kBool) return integer(0, 1);
  if (is_unsigned(dtype)) return std::abs(signed_element(dtype, range));
  return signed_element(dtype, range);
}

double RandomValues::signed_element(DType dtype, ValueRange range) {
  const bool whole = is_integer(dtype);
  switch (range) {
    case ValueRange::kSmall:
      return whole ? integer(-20, 20) : round_to(uniform(-1, 1), dtype);
    case ValueRange::kDivisor: {
      const double sign = integer(0, 1) == 0 ? -1 : 1;
      return sign * (whole ? integer(1, 7) : round_to(uniform(0.25, 1), dtype));
    }
    case ValueRange::kWide:
      if (integer(0, 7) == 0) return 0;
      return whole ? integer(-100, 100) : round_to(uniform(-100, 100), dtype);
    case ValueRange::kModerate:
      return whole ? integer(-10, 10) : round_to(uniform(-10, 10), dtype);
    case ValueRange::kPositive:
      return whole ? integer(1, 100) : round_to(std::pow(10.0, uniform(-3, 2)), dtype);
    case ValueRange::kQuarters:
      return whole ? integer(-10, 10) : integer(-40, 40) * 0.25;
    case ValueRange::kFew:
      return integer(-3, 3);
  }
  return 0;
}

ReferenceTensor RandomValues::tensor(DType dtype, const Shape& shape, ValueRange range) {
  ReferenceTensor out = empty_reference(dtype, shape);
  for (int64_t i = 0; i < shape.num_elements(); ++i) out.values.push_back(element(dtype, range));
  return out;
}

}  // namespace hxrt::detail
