#include "config/json_layout.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::ordered_json;

std::string one_line(const ordered_json& value) {
  if (!value.is_structured()) return value.dump();
  std::string text = value.is_object() ? "{" : "[";
  bool first = true;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (!first) text += ", ";
    first = false;
    if (value.is_object()) text += ordered_json(it.key()).dump() + ": ";
    text += one_line(it.value());
  }
  return text + (value.is_object() ? "}" : "]");
}

// A schema with a description reads best as a block: its keywords one per line.
bool described(const ordered_json& value) {
  return value.is_object() && value.contains("description");
}

// Appends `value`, whose line already holds `used` columns and is indented by `indent`.
void lay_out(const ordered_json& value, const std::string& indent, size_t used, size_t width,
             std::string& out) {
  const std::string line = one_line(value);
  // +1: the comma that may follow.
  if (!value.is_structured() || value.empty() ||
      (!described(value) && used + line.size() + 1 <= width)) {
    out += line;
    return;
  }
  const std::string inner = indent + "  ";
  out += value.is_object() ? "{\n" : "[\n";
  size_t left = value.size();
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string key = value.is_object() ? ordered_json(it.key()).dump() + ": " : "";
    out += inner + key;
    lay_out(it.value(), inner, inner.size() + key.size(), width, out);
    out += --left > 0 ? ",\n" : "\n";
  }
  out += indent + (value.is_object() ? "}" : "]");
}

}  // namespace

std::string laid_out_json(const ordered_json& value, size_t width) {
  std::string out;
  lay_out(value, "", 0, width, out);
  return out;
}

}  // namespace hxrt::detail
