#include "ops/attr_from_elements.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hxcommon/element_values.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

[[noreturn]] void refuse(const std::string& what, const std::string& why) {
  throw Error(StatusCode::kInvalidArgument, what + ": " + why);
}

double element_as_double(DType dtype, const void* data, size_t i) {
  return hxcommon::element_to_double(data, static_cast<int32_t>(dtype), i);
}

// Element i as an int: integers and bools as they are; a float tensor (the spec says int)
// only where it holds a whole number, else Error naming `what`.
int64_t element_as_int(DType dtype, const void* data, size_t i, const std::string& what) {
  if (dtype == DType::kI64) {
    int64_t out;
    std::memcpy(&out, static_cast<const char*>(data) + i * sizeof(int64_t), sizeof(int64_t));
    return out;
  }
  // Exact for the other integer types (but uint64 beyond 2^53, which no count or index is).
  const double number = element_as_double(dtype, data, i);
  if (!(std::fabs(number) < 9.2e18) || number != std::floor(number)) {
    refuse(what, "must hold whole numbers, as an integer tensor");
  }
  return static_cast<int64_t>(number);
}

// The one element of a tensor that must hold one.
void require_one(const Shape& shape, const std::string& what) {
  if (shape.num_elements() != 1) {
    refuse(what, "must hold one value, but has shape " + shape.to_string());
  }
}

}  // namespace

bool can_give_attribute(DType dtype, AttrType type) {
  switch (type) {
    case AttrType::kInts:
      return is_integer(dtype);
    case AttrType::kFloats:
      return is_floating(dtype);
    case AttrType::kInt:
    case AttrType::kBool:
    case AttrType::kFloat:
      return true;
    case AttrType::kDType:
    case AttrType::kString:
      break;
  }
  return false;
}

AttrValue attr_from_elements(DType dtype, const Shape& shape, const void* data, AttrType type,
                             const std::string& what) {
  const auto count = static_cast<size_t>(shape.num_elements());
  switch (type) {
    case AttrType::kInts: {
      if (shape.rank() > 1 || !can_give_attribute(dtype, type)) {
        refuse(what, "must be a 1-D tensor of integers, not " +
                         std::string(dtype_name(dtype)) + " of shape " + shape.to_string());
      }
      std::vector<int64_t> ints;
      for (size_t i = 0; i < count; ++i) ints.push_back(element_as_int(dtype, data, i, what));
      return ints;
    }
    case AttrType::kFloats: {
      if (shape.rank() > 1 || !can_give_attribute(dtype, type)) {
        refuse(what, "must be a 1-D tensor of a floating type, not " +
                         std::string(dtype_name(dtype)) + " of shape " + shape.to_string());
      }
      std::vector<double> floats;
      for (size_t i = 0; i < count; ++i) floats.push_back(element_as_double(dtype, data, i));
      return floats;
    }
    case AttrType::kInt:
      require_one(shape, what);
      return element_as_int(dtype, data, 0, what);
    case AttrType::kBool:
      require_one(shape, what);
      return element_as_double(dtype, data, 0) != 0;
    case AttrType::kFloat:
      require_one(shape, what);
      return element_as_double(dtype, data, 0);
    case AttrType::kDType:
    case AttrType::kString:
      break;
  }
  refuse(what, std::string("is an input hxrt cannot take as a ") + attr_type_name(type));
}

}  // namespace hxrt::detail
