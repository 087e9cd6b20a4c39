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

}  // namespace

uint16_t f16_from_double(double value) { return encode(value, kF16); }
uint16_t bf16_from_double(double value) { return encode(value, kBF16); }
double f16_to_double(uint16_t bits) { return decode(bits, kF16); }
double bf16_to_double(uint16_t bits) { return decode(bits, kBF16); }

}  // namespace hxcommon
