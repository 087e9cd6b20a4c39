#include "hxrt/attrs.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

namespace hxrt {

namespace {

// The shortest text that reads back as the same double, always with a '.' or an exponent so that
// it cannot be mistaken for an int attribute.
std::string format_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

Attrs::Attrs(std::initializer_list<std::pair<std::string, AttrValue>> items) {
  for (const auto& [name, value] : items) set(name, value);
}

void Attrs::set(std::string name, AttrValue value) {
  for (auto& item : items_) {
    if (item.first == name) {
      item.second = std::move(value);
      return;
    }
  }
  items_.emplace_back(std::move(name), std::move(value));
}

const AttrValue* Attrs::find(std::string_view name) const {
  for (const auto& item : items_) {
    if (item.first == name) return &item.second;
  }
  return nullptr;
}

std::string attr_value_to_string(const AttrValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, double>) {
          return format_float(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return quote(v);
        } else if constexpr (std::is_same_v<T, DType>) {
          return dtype_name(v);
        } else {
          std::string out = "[";
          for (size_t i = 0; i < v.size(); ++i) {
            if (i > 0) out += ", ";
            if constexpr (std::is_same_v<T, std::vector<double>>) {
              out += format_float(v[i]);
            } else {
              out += std::to_string(v[i]);
            }
          }
          return out + "]";
        }
      },
      value);
}

}  // namespace hxrt
