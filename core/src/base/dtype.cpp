#include "hxrt/dtype.hpp"

#include <string>

#include "hxrt/error.hpp"
#include "hxrt/plugin_vocabulary.h"

namespace hxrt {

namespace {

// The short names the config and the API also accept; NumPy's names and the sizes come from
// the ABI's vocabulary (hxrt/plugin_vocabulary.h), whose dtype values DType shares.
struct ShortName {
  DType dtype;
  const char* name;
};
constexpr ShortName kShortNames[] = {
    {DType::kF32, "f32"}, {DType::kF64, "f64"}, {DType::kF16, "f16"}, {DType::kBF16, "bf16"},
    {DType::kI32, "i32"}, {DType::kI64, "i64"}, {DType::kI8, "i8"},   {DType::kU8, "u8"},
    {DType::kI16, "i16"}, {DType::kU16, "u16"}, {DType::kU32, "u32"}, {DType::kU64, "u64"}};

}  // namespace

size_t dtype_size(DType dtype) { return hx_dtype_size(static_cast<int32_t>(dtype)); }

const char* dtype_name(DType dtype) { return hx_dtype_name(static_cast<int32_t>(dtype)); }

bool is_floating(DType dtype) {
  return dtype == DType::kF32 || dtype == DType::kF64 || dtype == DType::kF16 ||
         dtype == DType::kBF16 || is_float8(dtype);
}

bool is_float8(DType dtype) {
  return dtype == DType::kF8E4M3FN || dtype == DType::kF8E4M3FNUZ ||
         dtype == DType::kF8E5M2 || dtype == DType::kF8E5M2FNUZ;
}

bool is_integer(DType dtype) {
  return dtype != DType::kBool && !is_floating(dtype) && dtype_size(dtype) != 0;
}

bool is_unsigned(DType dtype) {
  return dtype == DType::kU8 || dtype == DType::kU16 || dtype == DType::kU32 ||
         dtype == DType::kU64;
}

DType parse_dtype(std::string_view name) {
  for (DType dtype : kAllDTypes) {
    if (name == dtype_name(dtype)) return dtype;
  }
  for (const ShortName& entry : kShortNames) {
    if (name == entry.name) return entry.dtype;
  }
  std::string names;
  for (DType dtype : kAllDTypes) {
    names += std::string(names.empty() ? "" : ", ") + dtype_name(dtype);
  }
  std::string short_names;
  for (const ShortName& entry : kShortNames) {
    short_names += std::string(short_names.empty() ? "" : ", ") + entry.name;
  }
  throw Error(StatusCode::kInvalidArgument, "unknown dtype '" + std::string(name) +
                                                "': expected one of " + names +
                                                " (or the short names " + short_names + ")");
}

}  // namespace hxrt
