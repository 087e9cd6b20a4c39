#include "hxcommon/element_values.hpp"

#include <hxrt/plugin_api.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "hxcommon/float_formats.hpp"

namespace hxcommon {
namespace {

template <class T>
T load(const void* data, size_t index) {
  T value;
  std::memcpy(&value, static_cast<const char*>(data) + index * sizeof(T), sizeof(T));
  return value;
}

template <class T>
void store(T value, void* data, size_t index) {
  std::memcpy(static_cast<char*>(data) + index * sizeof(T), &value, sizeof(T));
}

// Truncated toward zero and saturated: the conversion of a double that is defined for every
// value (a plain cast of one outside the range is undefined behaviour).
template <class Int>
Int saturated(double value) {
  if (std::isnan(value)) return 0;
  // 2^bits of the range's upper end, exactly a double: every value below it fits.
  const double above = std::ldexp(1.0, std::numeric_limits<Int>::digits);
  const double lowest = static_cast<double>(std::numeric_limits<Int>::min());
  if (value <= lowest) return std::numeric_limits<Int>::min();
  if (value >= above) return std::numeric_limits<Int>::max();
  return static_cast<Int>(value);
}

Float8 float8_of(int32_t dtype) {
  switch (dtype) {
    case HX_DTYPE_F8E4M3FNUZ: return Float8::kE4M3FNUZ;
    case HX_DTYPE_F8E5M2: return Float8::kE5M2;
    case HX_DTYPE_F8E5M2FNUZ: return Float8::kE5M2FNUZ;
    default: return Float8::kE4M3FN;
  }
}

}  // namespace

double element_to_double(const void* data, int32_t dtype, size_t index) {
  switch (dtype) {
    case HX_DTYPE_F32: return load<float>(data, index);
    case HX_DTYPE_F64: return load<double>(data, index);
    case HX_DTYPE_F16: return f16_to_double(load<uint16_t>(data, index));
    case HX_DTYPE_BF16: return bf16_to_double(load<uint16_t>(data, index));
    case HX_DTYPE_I32: return load<int32_t>(data, index);
    case HX_DTYPE_I64: return static_cast<double>(load<int64_t>(data, index));
    case HX_DTYPE_BOOL: return load<uint8_t>(data, index) != 0 ? 1 : 0;
    case HX_DTYPE_I8: return load<int8_t>(data, index);
    case HX_DTYPE_U8: return load<uint8_t>(data, index);
    case HX_DTYPE_I16: return load<int16_t>(data, index);
    case HX_DTYPE_U16: return load<uint16_t>(data, index);
    case HX_DTYPE_U32: return load<uint32_t>(data, index);
    case HX_DTYPE_U64: return static_cast<double>(load<uint64_t>(data, index));
    case HX_DTYPE_F8E4M3FN:
    case HX_DTYPE_F8E4M3FNUZ:
    case HX_DTYPE_F8E5M2:
    case HX_DTYPE_F8E5M2FNUZ: return f8_to_double(load<uint8_t>(data, index), float8_of(dtype));
    default: return 0;
  }
}

void element_from_double(double value, int32_t dtype, void* data, size_t index, bool saturate) {
  switch (dtype) {
    case HX_DTYPE_F32: return store(static_cast<float>(value), data, index);
    case HX_DTYPE_F64: return store(value, data, index);
    case HX_DTYPE_F16: return store(f16_from_double(value), data, index);
    case HX_DTYPE_BF16: return store(bf16_from_double(value), data, index);
    case HX_DTYPE_I32: return store(saturated<int32_t>(value), data, index);
    case HX_DTYPE_I64: return store(saturated<int64_t>(value), data, index);
    case HX_DTYPE_BOOL: return store(static_cast<uint8_t>(value != 0 ? 1 : 0), data, index);
    case HX_DTYPE_I8: return store(saturated<int8_t>(value), data, index);
    case HX_DTYPE_U8: return store(saturated<uint8_t>(value), data, index);
    case HX_DTYPE_I16: return store(saturated<int16_t>(value), data, index);
    case HX_DTYPE_U16: return store(saturated<uint16_t>(value), data, index);
    case HX_DTYPE_U32: return store(saturated<uint32_t>(value), data, index);
    case HX_DTYPE_U64: return store(saturated<uint64_t>(value), data, index);
    case HX_DTYPE_F8E4M3FN:
    case HX_DTYPE_F8E4M3FNUZ:
    case HX_DTYPE_F8E5M2:
    case HX_DTYPE_F8E5M2FNUZ:
      return store(f8_from_double(value, float8_of(dtype), saturate), data, index);
    default: return;
  }
}

std::string element_text(const void* data, int32_t dtype, size_t index) {
  switch (dtype) {
    case HX_DTYPE_BOOL: return load<uint8_t>(data, index) != 0 ? "true" : "false";
    case HX_DTYPE_I64: return std::to_string(load<int64_t>(data, index));
    case HX_DTYPE_U64: return std::to_string(load<uint64_t>(data, index));
    case HX_DTYPE_I32:
    case HX_DTYPE_I8:
    case HX_DTYPE_U8:
    case HX_DTYPE_I16:
    case HX_DTYPE_U16:
    case HX_DTYPE_U32:
      return std::to_string(static_cast<int64_t>(element_to_double(data, dtype, index)));
    default: {
      char text[64];
      std::snprintf(text, sizeof text, "%g", element_to_double(data, dtype, index));
      return text;
    }
  }
}

}  // namespace hxcommon
