#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "hxrt/op_info.hpp"

namespace hxrt {

namespace {

// AttrType lists AttrValue's alternatives in their order, so a value's index is its type.
template <AttrType type, class T>
constexpr bool holds_at =
    std::is_same_v<std::variant_alternative_t<static_cast<size_t>(type), AttrValue>, T>;
static_assert(std::variant_size_v<AttrValue> == static_cast<size_t>(AttrType::kFloats) + 1);
static_assert(holds_at<AttrType::kBool, bool> && holds_at<AttrType::kInt, int64_t> &&
              holds_at<AttrType::kFloat, double> && holds_at<AttrType::kString, std::string> &&
              holds_at<AttrType::kDType, DType> &&
              holds_at<AttrType::kInts, std::vector<int64_t>> &&
              holds_at<AttrType::kFloats, std::vector<double>>);

}  // namespace

const char* attr_type_name(AttrType type) {
  switch (type) {
    case AttrType::kBool: return "bool";
    case AttrType::kInt: return "int";
    case AttrType::kFloat: return "float";
    case AttrType::kString: return "string";
    case AttrType::kDType: return "dtype";
    case AttrType::kInts: return "list of ints";
    case AttrType::kFloats: return "list of floats";
  }
  return "unknown";
}

AttrType attr_type_of(const AttrValue& value) { return static_cast<AttrType>(value.index()); }

}  // namespace hxrt
