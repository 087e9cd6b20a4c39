// IEEE binary16 (f16) and bfloat16 (bf16), converted exactly from and to double: how the
// core's op references round and the conformance kit reads and writes tensors. The plugins
// keep their own conversions, so that a kit check never passes because it shares a plugin's
// bug.
#pragma once

#include <cstdint>

namespace hxcommon {

// The nearest f16 / bf16 to `value`, ties to even, rounded once from the double (never via
// float, which would round twice); overflow gives infinity, NaN a quiet NaN.
uint16_t f16_from_double(double value);
uint16_t bf16_from_double(double value);

// Exact: every f16 and bf16 value is a double.
double f16_to_double(uint16_t bits);
double bf16_to_double(uint16_t bits);

// ONNX's 8-bit floats (hx_dtype's float8_*): "fn" have no infinities, "uz" no negative zero
// (their 0x80 is the one NaN).
enum class Float8 { kE4M3FN, kE4M3FNUZ, kE5M2, kE5M2FNUZ };

// The nearest value of `format` to `value`, ties to even, as ONNX's Cast gives it: with
// `saturate`, a value beyond the largest finite one (infinity included) gives the largest, of
// its sign; without, infinity where the format has one (e5m2) and NaN elsewhere. NaN gives
// NaN; a uz format's zero is unsigned.
uint8_t f8_from_double(double value, Float8 format, bool saturate = true);
// Exact: every 8-bit float is a double.
double f8_to_double(uint8_t bits, Float8 format);

}  // namespace hxcommon
