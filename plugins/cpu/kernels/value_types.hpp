// The types the reduction and normalisation kernels compute an element type's values in, and
// the NaN test that the kernels comparing values share.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/element_types.hpp"

namespace hxcpu {

// Floating arithmetic on T's values: float for f16 and bf16, which it holds exactly; double
// for f32 (sums of many terms stay accurate), f64 and the integers (whose results ONNX
// computes in floating point, as a mean or a logarithm).
template <class T>
using RealType =
    std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, double>;

// T's values as kernels compare and add them: RealType for the floating dtypes, 0 or 1 for
// bool, and for the integer dtypes int64 (uint64 and int64 themselves). A sum or product
// stored back in T wraps as T's own arithmetic would, and a mean or a norm of many elements
// of a narrow type is exact instead of wrapping midway.
template <class T>
using WideInteger = std::conditional_t<sizeof(T) == 8, T, int64_t>;
template <class T>
using ValueType = std::conditional_t<
    std::is_integral_v<T>, WideInteger<T>,
    std::conditional_t<std::is_same_v<T, BoolByte>, uint8_t, RealType<T>>>;

// Whether x is a NaN, for any ValueType: an integer never is.
template <class V>
bool is_nan(V x) {
  if constexpr (std::is_floating_point_v<V>) {
    return std::isnan(x);
  } else {
    return false;
  }
}

}  // namespace hxcpu
