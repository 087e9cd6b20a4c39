// ONNX's 8-bit floats (hx_dtype's float8_*), which the CPU stores and casts but computes
// nothing on. Decoding reads the fields; encoding searches the format's ordered codes for the
// nearest, so that it shares no arithmetic with the reference it is checked against.
#pragma once

#include <cstdint>

namespace hxcpu {

struct Float8Format {
  int mantissa_bits;
  int bias;
  uint8_t largest;     // the code of the largest finite magnitude
  bool has_infinity;   // e5m2: S.11111.00; the others have none
  bool unsigned_zero;  // "uz": no -0, and 0x80 is the one NaN
};

// The format of an 8-bit float dtype; NULL for every other dtype.
const Float8Format* float8_format(int32_t dtype);

// Exact (every 8-bit float is a double).
double decode_float8(uint8_t bits, const Float8Format& format);

// To nearest, ties to the even code. Beyond the largest finite value (infinity included):
// with `saturate` the largest of the value's sign, else infinity where the format has one,
// else NaN. NaN gives NaN; a uz format's zero is +0.
uint8_t encode_float8(double value, const Float8Format& format, bool saturate);

}  // namespace hxcpu
