// Element arithmetic shared by the kernels. Integer overflow wraps modulo 2^bits, as in NumPy
// and TensorFlow, and is computed on the unsigned type so that it is defined behaviour (signed
// overflow is undefined, and aborts under -fsanitize=undefined).
#pragma once

#include <type_traits>

namespace hxcpu {
namespace arithmetic_detail {

template <class T, bool = std::is_integral_v<T>>
struct Wrapping {
  using type = T;
};
// Types narrower than int compute in unsigned int: their unsigned type would be promoted to
// (signed) int, whose products of two uint16 overflow.
template <class T>
struct Wrapping<T, true> {
  using type =
      std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
};

}  // namespace arithmetic_detail

// The type T's additions and multiplications are carried out in.
template <class T>
using WrappingType = typename arithmetic_detail::Wrapping<T>::type;

template <class T>
T wrapping_add(T a, T b) {
  using W = WrappingType<T>;
  return static_cast<T>(static_cast<W>(a) + static_cast<W>(b));
}

template <class T>
T wrapping_sub(T a, T b) {
  using W = WrappingType<T>;
  return static_cast<T>(static_cast<W>(a) - static_cast<W>(b));
}

template <class T>
T wrapping_mul(T a, T b) {
  using W = WrappingType<T>;
  return static_cast<T>(static_cast<W>(a) * static_cast<W>(b));
}

// base^exponent for an exponent >= 0, by squaring, wrapping as the products do.
template <class T>
T wrapping_power(T base, T exponent) {
  using W = WrappingType<T>;
  W result = 1;
  W factor = static_cast<W>(base);
  for (T rest = exponent; rest > 0; rest /= 2) {
    if (rest % 2 != 0) result *= factor;
    factor *= factor;
  }
  return static_cast<T>(result);
}

}  // namespace hxcpu
