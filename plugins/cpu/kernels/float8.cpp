#include "kernels/float8.hpp"

#include <hxrt/plugin_api.h>

#include <cmath>
#include <limits>

namespace hxcpu {
namespace {

constexpr Float8Format kE4M3FN{3, 7, 0x7E, false, false};
constexpr Float8Format kE4M3FNUZ{3, 8, 0x7F, false, true};
constexpr Float8Format kE5M2{2, 15, 0x7B, true, false};
constexpr Float8Format kE5M2FNUZ{2, 16, 0x7F, false, true};

uint8_t nan_code(const Float8Format& format, uint8_t sign) {
  return format.unsigned_zero ? 0x80 : static_cast<uint8_t>(sign | 0x7F);
}

}  // namespace

const Float8Format* float8_format(int32_t dtype) {
  switch (dtype) {
    case HX_DTYPE_F8E4M3FN: return &kE4M3FN;
    case HX_DTYPE_F8E4M3FNUZ: return &kE4M3FNUZ;
    case HX_DTYPE_F8E5M2: return &kE5M2;
    case HX_DTYPE_F8E5M2FNUZ: return &kE5M2FNUZ;
    default: return nullptr;
  }
}

double decode_float8(uint8_t bits, const Float8Format& format) {
  const bool negative = (bits & 0x80) != 0;
  const uint8_t magnitude = bits & 0x7F;
  if (format.unsigned_zero ? bits == 0x80 : magnitude > format.largest) {
    if (format.has_infinity && magnitude == format.largest + 1) {
      return negative ? -std::numeric_limits<double>::infinity()
                      : std::numeric_limits<double>::infinity();
    }
    return std::numeric_limits<double>::quiet_NaN();
  }
  const int exponent_field = magnitude >> format.mantissa_bits;
  const int mantissa = magnitude & ((1 << format.mantissa_bits) - 1);
  // A subnormal has the smallest normal's scale and no implicit leading 1.
  const int significand = exponent_field == 0 ? mantissa : mantissa + (1 << format.mantissa_bits);
  const int scale = (exponent_field == 0 ? 1 : exponent_field) - format.bias - format.mantissa_bits;
  const double value = std::ldexp(static_cast<double>(significand), scale);
  return negative ? -value : value;
}

uint8_t encode_float8(double value, const Float8Format& format, bool saturate) {
  const uint8_t sign = std::signbit(value) ? 0x80 : 0;
  if (std::isnan(value)) return nan_code(format, sign);
  const auto overflow = [&]() -> uint8_t {
    if (saturate) return static_cast<uint8_t>(sign | format.largest);
    if (format.has_infinity) return static_cast<uint8_t>(sign | (format.largest + 1));
    return nan_code(format, sign);
  };
  const double magnitude = std::fabs(value);
  // The positive codes 0 .. largest increase with their values. Past the largest stands the
  // value one step above it (the step of its binade), where rounding overflows.
  const double largest = decode_float8(format.largest, format);
  const double beyond = 2 * largest - decode_float8(format.largest - 1, format);
  if (!(magnitude < beyond)) return overflow();  // infinity too
  // The last code whose value is at most `magnitude`.
  int low = 0;
  int high = format.largest;
  while (low < high) {
    const int middle = (low + high + 1) / 2;
    if (decode_float8(static_cast<uint8_t>(middle), format) <= magnitude) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  int code = low;
  const double below = decode_float8(static_cast<uint8_t>(low), format);
  const double above =
      low == format.largest ? beyond : decode_float8(static_cast<uint8_t>(low + 1), format);
  const double to_below = magnitude - below;
  const double to_above = above - magnitude;
  if (to_above < to_below || (to_above == to_below && low % 2 != 0)) ++code;
  if (code > format.largest) return overflow();
  if (code == 0 && format.unsigned_zero) return 0;
  return static_cast<uint8_t>(sign | code);
}

}  // namespace hxcpu
