#include "hxcommon/float_formats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hxcommon {
namespace {

// Both formats are sign, exponent and fraction fields that differ only in width.
struct NarrowFormat {
  int fraction_bits;
  int exponent_bias;  // also the largest exponent of a finite value
};
constexpr NarrowFormat kF16{10, 15};
constexpr NarrowFormat kBF16{7, 127};

uint16_t encode(double value, NarrowFormat format) {
  const uint32_t sign = std::signbit(value) ? 0x8000u : 0u;
  const uint32_t exponent_all_ones = static_cast<uint32_t>(2 * format.exponent_bias + 1);
  const uint32_t infinity = sign | (exponent_all_ones << format.fraction_bits);
  if (std::isnan(value))
    return static_cast<uint16_t>(infinity | (1u << (format.fraction_bits - 1)));
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return static_cast<uint16_t>(sign);
  if (std::isinf(magnitude)) return static_cast<uint16_t>(infinity);

  // Subnormals share the smallest normal exponent; below it the fraction loses bits.
  const int exponent = std::max(std::ilogb(magnitude), 1 - format.exponent_bias);
  if (exponent > format.exponent_bias) return static_cast<uint16_t>(infinity);
  // The significand in units of the last fraction bit; scaling by a power of two is exact, so
  // the only rounding is the one below.
  const double scaled = std::ldexp(magnitude, format.fraction_bits - exponent);
  double units = std::floor(scaled);
  const double remainder = scaled - units;
  if (remainder > 0.5 || (remainder == 0.5 && std::fmod(units, 2.0) != 0)) units += 1;
  // A carry into the next binade, or from the subnormals into the normals, lands in the
  // exponent field by itself: the fields are contiguous.
  const uint32_t biased = static_cast<uint32_t>(exponent + format.exponent_bias - 1);
  const uint32_t bits = (biased << format.fraction_bits) + static_cast<uint32_t>(units);
  if (bits >= (exponent_all_ones << format.fraction_bits)) return static_cast<uint16_t>(infinity);
  return static_cast<uint16_t>(sign | bits);
}

double decode(uint16_t bits, NarrowFormat format) {
  const double sign = (bits & 0x8000u) != 0 ? -1.0 : 1.0;
  const uint32_t exponent_field = (bits & 0x7FFFu) >> format.fraction_bits;
  const uint32_t fraction = bits & ((1u << format.fraction_bits) - 1u);
  if (exponent_field == static_cast<uint32_t>(2 * format.exponent_bias + 1)) {
    return fraction != 0 ? std::nan("") : sign * std::numeric_limits<double>::infinity();
  }
  if (exponent_field == 0) {
    return sign * std::ldexp(static_cast<double>(fraction),
                             1 - format.exponent_bias - format.fraction_bits);
  }
  const double significand = static_cast<double>(fraction | (1u << format.fraction_bits));
  return sign * std::ldexp(significand, static_cast<int>(exponent_field) - format.exponent_bias -
                                            format.fraction_bits);
}

// The layout of an 8-bit float: sign, exponent and mantissa fields, and its special codes.
struct Float8Layout {
  int mantissa_bits;
  int bias;
  uint8_t largest;  // the code of the largest finite magnitude
  bool has_infinity;
  bool unsigned_zero;  // no -0: 0x80 is the NaN
};

Float8Layout layout_of(Float8 format) {
  switch (format) {
    case Float8::kE4M3FN: return {3, 7, 0x7E, false, false};
    case Float8::kE4M3FNUZ: return {3, 8, 0x7F, false, true};
    case Float8::kE5M2: return {2, 15, 0x7B, true, false};
    case Float8::kE5M2FNUZ: return {2, 16, 0x7F, false, true};
  }
  return {3, 7, 0x7E, false, false};
}

uint8_t f8_nan(const Float8Layout& layout, uint8_t sign) {
  return layout.unsigned_zero ? 0x80 : static_cast<uint8_t>(sign | 0x7F);
}

}  // namespace

double f8_to_double(uint8_t bits, Float8 format) {
  const Float8Layout layout = layout_of(format);
  const int exponent_field = (bits & 0x7F) >> layout.mantissa_bits;
  const int mantissa = bits & ((1 << layout.mantissa_bits) - 1);
  const double sign = (bits & 0x80) != 0 ? -1.0 : 1.0;
  if (layout.unsigned_zero ? bits == 0x80 : (bits & 0x7F) > layout.largest) {
    const bool infinity = layout.has_infinity && mantissa == 0;
    return infinity ? sign * std::numeric_limits<double>::infinity() : std::nan("");
  }
  if (exponent_field == 0) {
    return sign * std::ldexp(mantissa, 1 - layout.bias - layout.mantissa_bits);
  }
  return sign * std::ldexp(mantissa | (1 << layout.mantissa_bits),
                           exponent_field - layout.bias - layout.mantissa_bits);
}

uint8_t f8_from_double(double value, Float8 format, bool saturate) {
  const Float8Layout layout = layout_of(format);
  const uint8_t sign = std::signbit(value) ? 0x80 : 0;
  if (std::isnan(value)) return f8_nan(layout, sign);
  const double largest = f8_to_double(layout.largest, format);
  const auto overflow = [&] {
    if (saturate) return static_cast<uint8_t>(sign | layout.largest);
    return layout.has_infinity ? static_cast<uint8_t>(sign | (layout.largest + 1))
                               : f8_nan(layout, sign);
  };
  const double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return overflow();
  // Units of the last place at value's binade (the subnormals' below the smallest normal),
  // counted to nearest even: an exact division by a power of two, rounded once.
  const int smallest_normal_exponent = 1 - layout.bias;
  const int exponent =
      magnitude == 0 ? smallest_normal_exponent
                     : std::max(std::ilogb(magnitude), smallest_normal_exponent);
  const double units = std::nearbyint(std::ldexp(magnitude, layout.mantissa_bits - exponent));
  const double rounded = std::ldexp(units, exponent - layout.mantissa_bits);
  if (rounded > largest) return overflow();
  if (rounded == 0) return layout.unsigned_zero ? 0 : sign;
  const int rounded_exponent = std::ilogb(rounded);
  if (rounded_exponent < smallest_normal_exponent) {
    return static_cast<uint8_t>(sign | static_cast<int>(units));
  }
  const int exponent_field = rounded_exponent + layout.bias;
  const int mantissa = static_cast<int>(std::ldexp(rounded, layout.mantissa_bits -
                                                                rounded_exponent)) -
                       (1 << layout.mantissa_bits);
  return static_cast<uint8_t>(sign | (exponent_field << layout.mantissa_bits) | mantissa);
}

uint16_t f16_from_double(double value) { return encode(value, kF16); }
uint16_t bf16_from_double(double value) { return encode(value, kBF16); }
double f16_to_double(uint16_t bits) { return decode(bits, kF16); }
double bf16_to_double(uint16_t bits) { return decode(bits, kBF16); }

}  // namespace hxcommon
