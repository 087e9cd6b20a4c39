// Converting one element between any two element types, as Cast defines it (and as Fill uses
// to turn its double `value` into the output dtype).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/element_types.hpp"
#include "kernels/narrow_float.hpp"

namespace hxcpu {
namespace convert_detail {

// f16 and bf16 widen to float exactly; a bool byte reads as 0 or 1.
inline float widen(Half value) { return decode_narrow_float(value.bits, kHalfFormat); }
inline float widen(BFloat16 value) { return decode_narrow_float(value.bits, kBFloat16Format); }
inline int32_t widen(BoolByte value) { return value.byte != 0 ? 1 : 0; }
template <class T>
T widen(T value) {
  return value;
}

// A floating type that holds every value of T exactly, so that rounding to f16 or bf16 happens
// once. long double has a 64-bit significand on x86-64 (and is binary128 on AArch64), which
// covers int64_t and uint64_t.
template <class T>
using ExactFloat = std::conditional_t<
    std::is_same_v<T, float>, float,
    std::conditional_t<std::is_integral_v<T> && sizeof(T) == 8, long double, double>>;

// Truncates toward zero; NaN gives 0 and out-of-range values saturate, instead of the undefined
// behaviour of a plain cast.
template <class Int, class Float>
Int saturating_truncate(Float value) {
  // 0, or -2^(bits-1) for a signed type; then 2^bits or 2^(bits-1), the first value above the
  // range. Both are exact in double.
  constexpr double lowest = static_cast<double>(std::numeric_limits<Int>::min());
  constexpr double limit = static_cast<double>(std::numeric_limits<Int>::max() / 2 + 1) * 2;
  const double wide = static_cast<double>(value);
  if (std::isnan(wide)) return 0;
  if (wide <= lowest) return std::numeric_limits<Int>::min();
  if (wide >= limit) return std::numeric_limits<Int>::max();
  return static_cast<Int>(wide);
}

}  // namespace convert_detail

template <class To, class From>
To convert_element(From from) {
  using namespace convert_detail;
  const auto value = widen(from);
  using Value = std::decay_t<decltype(value)>;
  if constexpr (std::is_same_v<To, Half>) {
    return Half{encode_narrow_float(static_cast<ExactFloat<Value>>(value), kHalfFormat)};
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return BFloat16{encode_narrow_float(static_cast<ExactFloat<Value>>(value), kBFloat16Format)};
  } else if constexpr (std::is_same_v<To, BoolByte>) {
    return BoolByte{static_cast<uint8_t>(value != 0 ? 1 : 0)};
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<Value>) {
    return saturating_truncate<To>(value);
  } else {
    // Integer to integer wraps modulo 2^bits (as in NumPy and TensorFlow); anything to a
    // floating type rounds to nearest even, with overflow to infinity.
    return static_cast<To>(value);
  }
}

// f16 and bf16, which kernels compute on in float: it holds each of their values exactly, so
// the result is rounded once, to the dtype.
template <class T>
constexpr bool kNarrow = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// `function` (generic over its arguments' type) of elements of T: in T itself, or in float
// for f16 and bf16.
template <class T, class Function, class... Elements>
T compute_in_float(Function&& function, Elements... elements) {
  if constexpr (kNarrow<T>) {
    return convert_element<T>(function(convert_element<float>(elements)...));
  } else {
    return function(elements...);
  }
}

}  // namespace hxcpu
