// Element types of tensors. The values equal the plugin ABI's hx_dtype values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "hxrt/export.hpp"

namespace hxrt {

enum class DType : int32_t {
  kF32 = 1,
  kF64 = 2,
  kF16 = 3,
  kBF16 = 4,
  kI32 = 5,
  kI64 = 6,
  kBool = 7,
  kI8 = 8,
  kU8 = 9,
  kI16 = 10,
  kU16 = 11,
  kU32 = 12,
  kU64 = 13,
  kF8E4M3FN = 14,
  kF8E4M3FNUZ = 15,
  kF8E5M2 = 16,
  kF8E5M2FNUZ = 17,
};

// Every dtype, in ABI order.
inline constexpr DType kAllDTypes[] = {
    DType::kF32,      DType::kF64,        DType::kF16,     DType::kBF16,       DType::kI32,
    DType::kI64,      DType::kBool,       DType::kI8,      DType::kU8,         DType::kI16,
    DType::kU16,      DType::kU32,        DType::kU64,     DType::kF8E4M3FN,   DType::kF8E4M3FNUZ,
    DType::kF8E5M2,   DType::kF8E5M2FNUZ};

// Bytes per element.
HXRT_API size_t dtype_size(DType dtype);
// NumPy's names, from hx_dtype_name: "float32", "float64", "float16", "bfloat16", "int32",
// "int64", "bool", "int8", "uint8", "int16", "uint16", "uint32", "uint64", "float8_e4m3fn",
// "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz".
HXRT_API const char* dtype_name(DType dtype);
// Parses a name from dtype_name (also "f32", "f64", "f16", "bf16", "i32", "i64", "i8", "u8",
// "i16", "u16", "u32", "u64"); throws
// Error(kInvalidArgument) listing the accepted names otherwise.
HXRT_API DType parse_dtype(std::string_view name);
// The floating dtypes: f32, f64, f16, bf16 and the four 8-bit floats.
HXRT_API bool is_floating(DType dtype);
// The 8-bit floats, which are for storage and Cast: no op computes on them.
HXRT_API bool is_float8(DType dtype);
// The integer dtypes (not bool), and which of them are unsigned.
HXRT_API bool is_integer(DType dtype);
HXRT_API bool is_unsigned(DType dtype);

// The DType of a C++ element type: dtype_of<float>() == DType::kF32.
template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<float>() { return DType::kF32; }
template <> constexpr DType dtype_of<double>() { return DType::kF64; }
template <> constexpr DType dtype_of<int32_t>() { return DType::kI32; }
template <> constexpr DType dtype_of<int64_t>() { return DType::kI64; }
template <> constexpr DType dtype_of<bool>() { return DType::kBool; }
template <> constexpr DType dtype_of<int8_t>() { return DType::kI8; }
template <> constexpr DType dtype_of<uint8_t>() { return DType::kU8; }
template <> constexpr DType dtype_of<int16_t>() { return DType::kI16; }
template <> constexpr DType dtype_of<uint16_t>() { return DType::kU16; }
template <> constexpr DType dtype_of<uint32_t>() { return DType::kU32; }
template <> constexpr DType dtype_of<uint64_t>() { return DType::kU64; }

}  // namespace hxrt
