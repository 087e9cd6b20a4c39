// Op attributes: a small ordered list of name -> value, e.g. {{"transpose_a", true}}. A list of
// floats is a std::vector<double> (Resize's scales), a list of ints a std::vector<int64_t>.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/export.hpp"

namespace hxrt {

using AttrValue = std::variant<bool, int64_t, double, std::string, DType, std::vector<int64_t>,
                               std::vector<double>>;

class HXRT_API Attrs {
 public:
  Attrs() = default;
  // A name given twice keeps the last value, as set() does.
  Attrs(std::initializer_list<std::pair<std::string, AttrValue>> items);

  // Adds or replaces.
  void set(std::string name, AttrValue value);
  // nullptr when absent. Linear: ops have a handful of attributes.
  const AttrValue* find(std::string_view name) const;
  bool empty() const { return items_.empty(); }
  const std::vector<std::pair<std::string, AttrValue>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, AttrValue>> items_;
};

// No attributes: the default of execute's `attrs`, so that a call made without any builds and
// destroys no empty list of its own.
inline const Attrs kNoAttrs{};

// "true", "3", "2.5", "\"text\"", "float32", "[0, 1]", "[0.5, 2.0]".
HXRT_API std::string attr_value_to_string(const AttrValue& value);

}  // namespace hxrt
