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
};

class RandomValues {
 public:
  explicit RandomValues(uint64_t seed);

  // Random elements of `dtype` (bool: 0 or 1), each representable in it.
  ReferenceTensor tensor(DType dtype, const Shape& shape, ValueRange range = ValueRange::kSmall);
  // One value in [low, high].
  double uniform(double low, double high);

 private:
  double element(DType dtype, ValueRange range);
  int integer(int low, int high);

  std::mt19937_64 engine_;
};

}  // namespace hxrt::detail
