// The declaration of one of an op's attributes (OpSchema::attrs), by name.
#pragma once

#include <algorithm>
#include <string_view>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

// nullptr when `schema` declares no attribute `name`.
inline const OpAttrInfo* declared_attr(const OpSchema& schema, std::string_view name) {
  const auto found = std::find_if(schema.attrs.begin(), schema.attrs.end(),
                                  [&](const OpAttrInfo& info) { return info.name == name; });
  return found == schema.attrs.end() ? nullptr : &*found;
}

}  // namespace hxrt::detail
