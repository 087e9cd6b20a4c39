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

}  // namespace hxcommon
