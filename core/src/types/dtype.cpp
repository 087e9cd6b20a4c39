#include "hxrt/dtype.hpp"

#include <cstdint>
#include <iterator>
#include <string>

#include "hxrt/error.hpp"

namespace hxrt {

namespace {

struct DTypeInfo {
  DType dtype;
  const char* name;
  const char* short_name;
  size_t size;
  bool floating;
};

constexpr DTypeInfo kDTypeInfo[] = {
    {DType::kF32, "float32", "f32", 4, true},   {DType::kF64, "float64", "f64", 8, true},
    {DType::kF16, "float16", "f16", 2, true},   {DType::kBF16, "bfloat16", "bf16", 2, true},
    {DType::kI32, "int32", "i32", 4, false},    {DType::kI64, "int64", "i64", 8, false},
    {DType::kBool, "bool", nullptr, 1, false},
};

// kDTypeInfo lists the dtypes in ABI order, F32 = 1 first, so a dtype's entry is found by its
// value (dtype_size is on every op's path).
constexpr bool in_abi_order() {
  for (size_t i = 0; i < std::size(kDTypeInfo); ++i) {
    if (static_cast<size_t>(kDTypeInfo[i].dtype) != i + 1) return false;
  }
  return true;
}
static_assert(in_abi_order(), "kDTypeInfo must list the dtypes in ABI order");

// A DType may hold any int32 value that crossed the ABI, so lookups must not assume a valid one.
const DTypeInfo* find_info(DType dtype) {
  const size_t index = static_cast<uint32_t>(dtype) - 1u;  // dtype 0 wraps past the end
  return index < std::size(kDTypeInfo) ? &kDTypeInfo[index] : nullptr;
}

}  // namespace

size_t dtype_size(DType dtype) {
  const DTypeInfo* info = find_info(dtype);
  return info ? info->size : 0;
}

const char* dtype_name(DType dtype) {
  const DTypeInfo* info = find_info(dtype);
  return info ? info->name : "invalid";
}

bool is_floating(DType dtype) {
  const DTypeInfo* info = find_info(dtype);
  return info && info->floating;
}

DType parse_dtype(std::string_view name) {
  for (const DTypeInfo& info : kDTypeInfo) {
    if (name == info.name || (info.short_name && name == info.short_name)) return info.dtype;
  }
  throw Error(StatusCode::kInvalidArgument,
              "unknown dtype '" + std::string(name) +
                  "': expected one of float32, float64, float16, bfloat16, int32, int64, bool "
                  "(or the short names f32, f64, f16, bf16, i32, i64)");
}

}  // namespace hxrt
