// IEEE binary16 (f16) and bfloat16 (bf16) conversions. Both are "narrow" binary formats that
// differ only in field widths, so one encoder and one decoder serve both.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace hxcpu {

struct NarrowFloatFormat {
  int mantissa_bits;  // stored fraction bits, without the implicit leading 1
  int exponent_bias;  // also the largest unbiased exponent of a finite value
};
inline constexpr NarrowFloatFormat kHalfFormat{10, 15};
inline constexpr NarrowFloatFormat kBFloat16Format{7, 127};

// Rounds `value` to the nearest representable value, ties to even, in one step: the scaling
// below is by a power of two and therefore exact, so no intermediate rounding happens as long
// as Wide holds `value` exactly (pass float, double, or long double for 64-bit integers).
// Overflow gives infinity, NaN gives a quiet NaN of the same sign.
template <class Wide>
uint16_t encode_narrow_float(Wide value, NarrowFloatFormat format) {
  const int mantissa_bits = format.mantissa_bits;
  const int bias = format.exponent_bias;
  const uint32_t sign = std::signbit(value) ? 0x8000u : 0u;
  const uint32_t infinity = sign | (static_cast<uint32_t>(2 * bias + 1) << mantissa_bits);
  if (std::isnan(value)) return static_cast<uint16_t>(infinity | (1u << (mantissa_bits - 1)));
  const Wide magnitude = std::fabs(value);
  if (magnitude == 0) return static_cast<uint16_t>(sign);
  if (std::isinf(magnitude)) return static_cast<uint16_t>(infinity);

  int exponent = 0;
  std::frexp(magnitude, &exponent);
  exponent -= 1;  // now magnitude is in [2^exponent, 2^(exponent+1))
  if (exponent > bias) return static_cast<uint16_t>(infinity);
  exponent = std::max(exponent, 1 - bias);  // subnormals share the smallest normal's scale

  // The significand as a fixed-point number with `mantissa_bits` fraction bits.
  const Wide scaled = std::ldexp(magnitude, mantissa_bits - exponent);
  const Wide truncated = std::floor(scaled);
  const Wide remainder = scaled - truncated;
  uint32_t significand = static_cast<uint32_t>(truncated);
  if (remainder > Wide(0.5) || (remainder == Wide(0.5) && (significand & 1u) != 0)) {
    ++significand;
  }
  if (significand == (2u << mantissa_bits)) {  // rounding carried into the next binade
    significand >>= 1;
    ++exponent;
  }
  if (exponent > bias) return static_cast<uint16_t>(infinity);
  const uint32_t implicit_one = 1u << mantissa_bits;
  if (significand < implicit_one) return static_cast<uint16_t>(sign | significand);  // subnormal
  // A subnormal that rounded up to the implicit one lands here too, as the smallest normal.
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(exponent + bias) << mantissa_bits) |
                               (significand - implicit_one));
}

// Every f16 and bf16 value is exactly a float. NaN payloads and signs are kept.
inline float decode_narrow_float(uint16_t bits, NarrowFloatFormat format) {
  const int mantissa_bits = format.mantissa_bits;
  const int bias = format.exponent_bias;
  const uint32_t sign = (bits & 0x8000u) << 16;
  const uint32_t exponent_field = (bits & 0x7FFFu) >> mantissa_bits;
  const uint32_t fraction = bits & ((1u << mantissa_bits) - 1u);
  const int float_fraction_shift = 23 - mantissa_bits;
  uint32_t float_bits = 0;
  if (exponent_field == static_cast<uint32_t>(2 * bias + 1)) {  // infinity or NaN
    float_bits = sign | 0x7F800000u | (fraction << float_fraction_shift);
  } else if (exponent_field == 0) {  // zero or subnormal: fraction * 2^(1 - bias - mantissa_bits)
    const float magnitude = std::ldexp(static_cast<float>(fraction), 1 - bias - mantissa_bits);
    std::memcpy(&float_bits, &magnitude, sizeof float_bits);
    float_bits |= sign;
  } else {
    const uint32_t float_exponent = exponent_field - static_cast<uint32_t>(bias) + 127u;
    float_bits = sign | (float_exponent << 23) | (fraction << float_fraction_shift);
  }
  float value;
  std::memcpy(&value, &float_bits, sizeof value);
  return value;
}

}  // namespace hxcpu
